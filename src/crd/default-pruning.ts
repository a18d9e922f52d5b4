/**
 * What the API server would prune from a schema's `default`: members no property, no
 * additionalProperties and no x-kubernetes-preserve-unknown-fields keep. Such a default is refused
 * when the CRD is created ("must not have unknown fields"), since it could never be stored as written.
 */
import { isPlainObject } from '../util/json.js';

/** The dotted paths of the members of `value` that `schema` would prune. */
export function prunedMembers(value: unknown, schema: Record<string, unknown>, at = ''): string[] {
  if (schema['x-kubernetes-preserve-unknown-fields'] === true) return [];
  if (Array.isArray(value)) {
    const items = isPlainObject(schema.items) ? schema.items : undefined;
    return items === undefined ? [] : value.flatMap((item, index) => prunedMembers(item, items, `${at}[${index}]`));
  }
  if (!isPlainObject(value)) return [];
  // An embedded resource keeps apiVersion, kind and metadata whatever its properties say.
  const embedded = schema['x-kubernetes-embedded-resource'] === true;
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const additional = isPlainObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
  return Object.entries(value).flatMap(([key, member]) => {
    const path = at === '' ? key : `${at}.${key}`;
    const property = properties[key];
    if (isPlainObject(property)) return prunedMembers(member, property, path);
    if (additional !== undefined) return prunedMembers(member, additional, path);
    if (schema.additionalProperties === true || (embedded && ['apiVersion', 'kind', 'metadata'].includes(key))) return [];
    return [path];
  });
}
