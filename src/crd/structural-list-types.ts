/** x-kubernetes-list-type, x-kubernetes-list-map-keys and x-kubernetes-map-type: where they may be written, and what a map list's keys must be. */
import { isPlainObject } from '../util/json.js';
import type { Add, SchemaNode as Node } from './structural-report.js';

export function checkListAndMapTypes(node: Node, path: Array<string | number>, add: Add): void {
  const listType = node['x-kubernetes-list-type'];
  const mapKeys = node['x-kubernetes-list-map-keys'];
  const mapType = node['x-kubernetes-map-type'];
  const items = isPlainObject(node.items) ? node.items : undefined;
  if (mapType !== undefined) {
    if (node.type !== 'object') add([...path, 'type'], 'must be object if x-kubernetes-map-type is specified', 'write type: object');
    if (mapType !== 'atomic' && mapType !== 'granular')
      add(
        [...path, 'x-kubernetes-map-type'],
        `Unsupported value: ${JSON.stringify(mapType)}: supported values: "atomic", "granular"`,
        'write atomic or granular',
      );
  }
  if (listType !== undefined) {
    if (node.type !== 'array') add([...path, 'type'], 'must be array if x-kubernetes-list-type is specified', 'write type: array');
    if (!['atomic', 'set', 'map'].includes(String(listType)))
      add(
        [...path, 'x-kubernetes-list-type'],
        `Unsupported value: ${JSON.stringify(listType)}: supported values: "atomic", "map", "set"`,
        'write atomic, set or map',
      );
  }
  if (Array.isArray(mapKeys) && mapKeys.length > 0 && listType !== 'map')
    add([...path, 'x-kubernetes-list-type'], 'must be map if x-kubernetes-list-map-keys is non-empty', 'write x-kubernetes-list-type: map');
  if ((listType === 'set' || listType === 'map') && items?.nullable === true)
    add([...path, 'items', 'nullable'], `cannot be nullable when x-kubernetes-list-type is ${listType}`, 'remove nullable');
  if (listType !== 'map') return;
  if (!Array.isArray(mapKeys) || mapKeys.length === 0)
    add(
      [...path, 'x-kubernetes-list-map-keys'],
      'must not be empty if x-kubernetes-list-type is map',
      'name the item properties that identify an element, e.g. ["name"]',
    );
  if (items === undefined)
    return add([...path, 'items'], 'must have a schema if x-kubernetes-list-type is map', 'add items: { type: object, properties: … }');
  if (items.type !== 'object')
    return add([...path, 'items', 'type'], "must be object if parent array's x-kubernetes-list-type is map", 'write type: object');
  const itemProperties = isPlainObject(items.properties) ? items.properties : {};
  const required = Array.isArray(items.required) ? items.required : [];
  const seen = new Set<unknown>();
  for (const key of Array.isArray(mapKeys) ? mapKeys : []) {
    if (seen.has(key)) add([...path, 'x-kubernetes-list-map-keys'], 'must not contain duplicate entries', 'name each key once');
    seen.add(key);
    const property = itemProperties[String(key)];
    if (!isPlainObject(property)) {
      add(
        [...path, 'x-kubernetes-list-map-keys'],
        'entries must all be names of item properties',
        `declare ${String(key)} in items.properties`,
      );
      continue;
    }
    const at = [...path, 'items', 'properties', String(key)];
    if (property.type === 'array' || property.type === 'object')
      add(
        [...at, 'type'],
        "must be a scalar type if parent array's x-kubernetes-list-type is map",
        'key by a string, integer or boolean property',
      );
    if (!required.includes(key) && property.default === undefined)
      add(
        [...at, 'default'],
        'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
        `add ${String(key)} to items.required`,
      );
    if (property.nullable === true)
      add([...at, 'nullable'], 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable', 'remove nullable');
  }
}
