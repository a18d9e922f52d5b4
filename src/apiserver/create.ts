/**
 * A create as the generic registry runs it before storage (apiserver registry/generic Store.Create
 * and rest.BeforeCreate): a name made from generateName, the namespace kubectl sends (the object's
 * own, else "default"; none for a cluster-scoped kind), the kind's defaults, then its validation.
 * Nothing is written into the manifest: `kubectl apply` sends it undefaulted.
 */
import { isPlainObject } from '../util/json.js';
import { copyOf } from './go-values.js';
import type { FieldError } from './field-error.js';
import type { KindRules } from './kind-rules.js';

/** names.SimpleNameGenerator keeps 58 characters of the base and adds 5 random ones: any 5 lowercase alphanumerics judge alike. */
const generatedName = (base: string): string => `${base.slice(0, 58)}b2x4z`;

export function createErrors(rules: KindRules, manifest: unknown): FieldError[] {
  if (!isPlainObject(manifest)) return [];
  // Only metadata is written here; a kind's defaults copy what they write.
  const metadata = copyOf(manifest.metadata);
  const copy = Object.assign({}, manifest, { metadata });
  const name = typeof metadata.name === 'string' ? metadata.name : '';
  if (name === '' && typeof metadata.generateName === 'string' && metadata.generateName !== '')
    metadata.name = generatedName(metadata.generateName);
  const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : '';
  if (rules.namespaced) metadata.namespace = namespace === '' ? 'default' : namespace;
  else metadata.namespace = undefined;
  return rules.validate(rules.defaults === undefined ? copy : rules.defaults(copy));
}
