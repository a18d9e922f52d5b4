/**
 * @bufbuild/cel and the protobuf types its values are made of, loaded when the first CEL rule is
 * compiled: they take about 250 ms to load, which a server pays only once a custom resource is
 * checked, not at start. Their CommonJS builds, so that compiling stays synchronous; every CEL module
 * here takes them from this one, so that one copy of each is loaded.
 */
import { createRequire } from 'node:module';
import { goRe2 } from '../schema/go-regexp.js';
import { kubernetesFunctions, kubernetesTypes } from './cel-kubernetes/index.js';
import { celLists } from './cel-lists.js';
import { goStrings } from './cel-strings.js';

type Cel = typeof import('@bufbuild/cel');
type CelExtensions = typeof import('@bufbuild/cel/ext');
type Protobuf = typeof import('@bufbuild/protobuf');
type WellKnownTypes = typeof import('@bufbuild/protobuf/wkt');
type Reflection = typeof import('@bufbuild/protobuf/reflect');
type Re2 = typeof import('@bufbuild/re2');

export interface CelLibrary {
  cel: Cel;
  ext: CelExtensions;
  protobuf: Protobuf;
  wkt: WellKnownTypes;
  reflect: Reflection;
  re2: Re2;
  /** @bufbuild/cel's environment with its strings extension and Kubernetes' libraries (cel-kubernetes/): what rules run in. */
  env: ReturnType<Cel['celEnv']>;
}

let library: CelLibrary | undefined;

export function celLibrary(): CelLibrary {
  if (library === undefined) {
    const require = createRequire(import.meta.url);
    const cel = require('@bufbuild/cel') as Cel;
    const ext = require('@bufbuild/cel/ext') as CelExtensions;
    const runtime = {
      cel,
      protobuf: require('@bufbuild/protobuf') as Protobuf,
      wkt: require('@bufbuild/protobuf/wkt') as WellKnownTypes,
      reflect: require('@bufbuild/protobuf/reflect') as Reflection,
      re2: goRe2(),
    };
    // goStrings after the strings extension: its replace() takes the place of @bufbuild/cel's, as celLists' `+` does.
    const funcs = [...ext.strings, ...goStrings(cel), ...celLists(cel), ...kubernetesFunctions(runtime)];
    library = { ...runtime, ext, env: cel.celEnv({ funcs, registry: kubernetesTypes(runtime) }) };
  }
  return library;
}
