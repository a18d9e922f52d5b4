/**
 * Kubernetes' CEL libraries as its CRD validation rules have them at 1.33 (environment.MustBaseEnvSet,
 * NewExpressions at compatibility version 1.32): ip, cidr, url, quantity, format, regex, lists, and
 * cel-go's sets and optional types, on @bufbuild/cel. What is not here (two-variable
 * comprehensions, the optional syntax and macros) is listed in cel-environment.ts.
 */
import type { CelFunc } from '@bufbuild/cel';
import type { Registry } from '@bufbuild/protobuf';
import { cidrLibrary } from './cidr.js';
import { formatLibrary } from './format.js';
import { ipLibrary } from './ip.js';
import { listsLibrary } from './lists.js';
import { type CelRuntime, opaqueTypes, TYPE_IDENTIFIERS, type TypeName } from './opaque.js';
import { optionalLibrary } from './optional.js';
import { quantityLibrary } from './quantity.js';
import { regexLibrary } from './regex.js';
import { setsLibrary } from './sets.js';
import { urlLibrary } from './url.js';

export type { CelRuntime } from './opaque.js';

const LIBRARIES = [
  ipLibrary,
  cidrLibrary,
  urlLibrary,
  quantityLibrary,
  formatLibrary,
  regexLibrary,
  listsLibrary,
  setsLibrary,
  optionalLibrary,
];

/** Every function of the libraries, for the CEL environment. */
export function kubernetesFunctions(runtime: CelRuntime): CelFunc[] {
  const types = opaqueTypes(runtime);
  return LIBRARIES.flatMap((library) => library(runtime, types));
}

/** The registry that makes the types a rule may name resolve (`net.IP`); none of them can be built (`net.IP{}`), cel-type-check.ts refuses that. */
export function kubernetesTypes(runtime: CelRuntime): Registry {
  const types = opaqueTypes(runtime);
  return runtime.protobuf.createRegistry(...[...TYPE_IDENTIFIERS].map((name) => types[name as TypeName].desc));
}
