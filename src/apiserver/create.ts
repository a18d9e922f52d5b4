/**
 * A create as the generic registry runs it before storage (apiserver registry/generic Store.Create
 * and rest.BeforeCreate): a name made from generateName, the namespace kubectl sends (the object's
 * own, else "default"; none for a cluster-scoped kind), the kind's defaults, then its validation.
 * Everything happens on a copy: `kubectl apply` sends the manifest undefaulted.
 */
import { isPlainObject } from '../util/json.js';
import type { Fields } from './go-values.js';
import type { FieldError } from './field-error.js';
import type { KindRules } from './kind-rules.js';

/** names.SimpleNameGenerator keeps 58 characters of the base and adds 5 random ones: any 5 lowercase alphanumerics judge alike. */
const generatedName = (base: string): string => `${base.slice(0, 58)}b2x4z`;

export function createErrors(rules: KindRules, manifest: unknown): FieldError[] {
  if (!isPlainObject(manifest)) return [];
  const copy = structuredClone(manifest);
  const metadata: Fields = isPlainObject(copy.metadata) ? copy.metadata : (copy.metadata = {});
  const name = typeof metadata.name === 'string' ? metadata.name : '';
  if (name === '' && typeof metadata.generateName === 'string' && metadata.generateName !== '')
    metadata.name = generatedName(metadata.generateName);
  const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : '';
  if (rules.namespaced) metadata.namespace = namespace === '' ? 'default' : namespace;
  else delete metadata.namespace;
  rules.defaults?.(copy);
  return rules.validate(copy);
}
