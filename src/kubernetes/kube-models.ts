/**
 * Where `kubernetes-models` keeps a built-in kind: its TypeScript declarations (the build reads its
 * structure, enums and descriptions) and its validator, compiled by ajv from the official Kubernetes
 * OpenAPI (the server checks every manifest with it; the build reads int32, byte, date-time … from
 * it). One lookup, so that the input schemas and the manifest checks always speak of the same kind.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
// Go's rules for byte, quantity, date-time and int64 in the validators' shared format table.
import './kube-formats.js';
import { appendErrorsOnLoad } from './validator-code.js';

const require = createRequire(import.meta.url);
const modelsRoot = path.dirname(require.resolve('kubernetes-models'));
// Before any validator loads: their error merge, appended in place (linear in a list's errors).
appendErrorsOnLoad(path.join(modelsRoot, '_schemas'));

/** An ajv error as kubernetes-models' validators report it. */
export interface KubeError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Checks a whole manifest of the kind: every violation, or none. */
export type KindValidator = (manifest: unknown) => KubeError[];

export interface KubeModel {
  apiVersion: string;
  kind: string;
  /** The `.d.ts` that exports every type of the kind's API group version. */
  declarations: string;
  /** The kind's interface in those declarations. */
  typeName: string;
  validate: KindValidator;
}

type ModelClass = { prototype: { validate(this: unknown): void } };

/** `networking.k8s.io/v1` → the folder `networking.k8s.io/v1`; the core group `v1` → `v1`. */
function groupFolder(apiVersion: string, kind: string): string | undefined {
  // Names go into a module path: only what Kubernetes names can look like.
  if (!/^([a-z0-9][a-z0-9.-]*\/)?v[0-9]+((alpha|beta)[0-9]+)?$/.test(apiVersion) || !/^[A-Z][A-Za-z0-9]*$/.test(kind)) return undefined;
  const folder = path.join(modelsRoot, ...apiVersion.split('/'));
  return existsSync(path.join(folder, `${kind}.js`)) ? folder : undefined;
}

const models = new Map<string, KubeModel | undefined>();

/**
 * The kind's model, or undefined when kubernetes-models has none (a custom resource, a typo). Its
 * validator module loads on the first check: a server starts without loading the validators of
 * every kind its bundles render (about 100 ms for the shipped ten).
 */
export function kubeModel(apiVersion: string, kind: string): KubeModel | undefined {
  const key = `${apiVersion}|${kind}`;
  if (models.has(key)) return models.get(key);
  const folder = groupFolder(apiVersion, kind);
  let model: KubeModel | undefined;
  if (folder !== undefined) {
    let check: ((this: unknown) => void) | undefined;
    const load = () => {
      const exported = (require(path.join(folder, `${kind}.js`)) as Record<string, ModelClass | undefined>)[kind];
      if (typeof exported?.prototype?.validate !== 'function') throw new Error(`kubernetes-models ${apiVersion} ${kind} has no validator`);
      return exported.prototype.validate;
    };
    model = {
      apiVersion,
      kind,
      declarations: path.join(folder, 'index.d.ts'),
      typeName: `I${kind}`,
      // The model's own validate, run on the manifest itself: no copy into a model object.
      validate: (manifest) => {
        check ??= load();
        try {
          check.call(manifest);
          return [];
        } catch (error) {
          const errors = (error as { errors?: KubeError[] }).errors;
          if (Array.isArray(errors)) return errors;
          throw error;
        }
      },
    };
  }
  models.set(key, model);
  return model;
}
