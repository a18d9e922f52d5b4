/**
 * Where a transition rule can run: old and new values correlate by member name and map key, and
 * list elements only in a keyed list (`x-kubernetes-list-type: map`), by their keys, never by
 * position. The API server refuses a CRD with a transition rule below a list of another type.
 */
import { isPlainObject, toPointer } from '../util/json.js';
import type { CrdProblem } from './crd-problem.js';

type Node = Record<string, unknown>;

/** The `x-kubernetes-list-map-keys` of a keyed list (`x-kubernetes-list-type: map`), else undefined. */
export function mapListKeys(schema: Node): string[] | undefined {
  const keys = schema['x-kubernetes-list-map-keys'];
  if (schema['x-kubernetes-list-type'] !== 'map' || !Array.isArray(keys) || keys.length === 0) return undefined;
  return keys.every((key) => typeof key === 'string') ? (keys as string[]) : undefined;
}

/** An element's key in a keyed list, as the API server correlates them: undefined unless every key member is there and a scalar. */
function listMapKey(item: unknown, keys: readonly string[]): string | undefined {
  if (!isPlainObject(item)) return undefined;
  const values: unknown[] = [];
  for (const key of keys) {
    const value = Object.hasOwn(item, key) ? item[key] : undefined;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
    values.push(value);
  }
  return JSON.stringify(values);
}

/**
 * The elements of `value`, a keyed list of schema `schema`, each with its index and the element of
 * `old` it correlates with (the first of that key); none in any other list, nor where old is no list.
 */
export function correlatedElements(schema: Node, value: unknown[], old: unknown): Array<[number, unknown, unknown]> {
  const keys = mapListKeys(schema);
  if (keys === undefined || !Array.isArray(old)) return [];
  const oldByKey = new Map<string, unknown>();
  for (const item of old) {
    const key = listMapKey(item, keys);
    if (key !== undefined && !oldByKey.has(key)) oldByKey.set(key, item);
  }
  const correlated: Array<[number, unknown, unknown]> = [];
  value.forEach((item, index) => {
    const key = listMapKey(item, keys);
    if (key !== undefined) correlated.push([index, item, oldByKey.get(key)]);
  });
  return correlated;
}

/** The schema of the list at a manifest path (`*` for any element or map value), for a message. */
function listSchemaAt(schema: Node, manifestPath: readonly string[]): Node | undefined {
  let node: unknown = schema;
  for (const segment of manifestPath) {
    if (!isPlainObject(node)) return undefined;
    if (segment === '*') node = isPlainObject(node.items) ? node.items : node.additionalProperties;
    else node = isPlainObject(node.properties) ? node.properties[segment] : undefined;
  }
  return isPlainObject(node) ? node : undefined;
}

/** The problem of a transition rule at `pointer` in the CRD file whose node is below the uncorrelatable list at `list`. */
export function uncorrelatableProblem(schema: Node, list: readonly string[], rule: string, pointer: string): CrdProblem {
  const listSchema = listSchemaAt(schema, list);
  const listType = typeof listSchema?.['x-kubernetes-list-type'] === 'string' ? listSchema['x-kubernetes-list-type'] : 'atomic';
  return {
    pointer: pointer + '/rule',
    message:
      `rule ${JSON.stringify(rule)} uses oldSelf below the list ${toPointer(list) || '/'}, whose elements cannot be told apart ` +
      `between the old and the new object (its x-kubernetes-list-type is ${listType}, not map)`,
    fix: 'make that list x-kubernetes-list-type: map with x-kubernetes-list-map-keys, or write the rule on the list itself',
  };
}
