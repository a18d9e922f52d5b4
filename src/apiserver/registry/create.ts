/**
 * A create as the generic registry runs it before storage (apiserver registry/generic Store.Create
 * and rest.BeforeCreate): a name made from generateName, the namespace kubectl sends (the object's
 * own, else "default"; none for a cluster-scoped kind), the kind's defaults, then its validation.
 * Nothing is written into the manifest: `kubectl apply` sends it undefaulted.
 */
import { isPlainObject } from '../../util/json.js';
import { copyOf, object, string } from '../golang/values.js';
import type { FieldError } from '../apimachinery/field-error.js';
import type { KindRules } from './kind-rules.js';

/** names.SimpleNameGenerator keeps 58 characters of the base and adds 5 random ones: any 5 lowercase alphanumerics judge alike. */
const generatedName = (base: string): string => `${base.slice(0, 58)}b2x4z`;

export function createErrors(rules: KindRules, manifest: unknown): FieldError[] {
  if (!isPlainObject(manifest)) return [];
  // The top level is copied for the kind's defaults, which copy whatever they write below it.
  const copy = Object.assign({}, manifest);
  const metadata = object(manifest.metadata);
  const name = string(metadata.name);
  const generateName = string(metadata.generateName);
  const namespace = string(metadata.namespace);
  const namespaceAsSent = rules.namespaced ? (namespace === '' ? 'default' : namespace) : '';
  // Metadata is copied only where the registry would change it: most manifests are sent as the registry keeps them.
  if (!isPlainObject(manifest.metadata) || (name === '' && generateName !== '') || namespace !== namespaceAsSent) {
    const written = copyOf(manifest.metadata);
    if (name === '' && generateName !== '') written.name = generatedName(generateName);
    written.namespace = namespaceAsSent === '' ? undefined : namespaceAsSent;
    copy.metadata = written;
  }
  return rules.validate(rules.defaults === undefined ? copy : rules.defaults(copy));
}
