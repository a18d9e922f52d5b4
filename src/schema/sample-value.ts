/**
 * A small value a schema accepts, for requests no author wrote (the upgrade judge's generated
 * requests): the first enum member or the default where there is one, else the least value of the
 * type, with required members only. Undefined when the schema gives nothing to go on; a value that
 * still fails (a pattern, a rule) is dropped by whoever validates it.
 */
import { isPlainObject } from '../util/json.js';
import { resolveRef } from '../kubernetes/kind-definitions.js';
import type { Schema } from '../kubernetes/kind-schema.js';

/** Values Kubernetes' string formats accept. */
const FORMATTED: Record<string, unknown> = {
  'date-time': '2026-01-01T00:00:00Z',
  byte: 'ZXhhbXBsZQ==',
  quantity: '1',
  'int-or-string': 1,
  int32: 1,
  int64: 1,
};

const MAX_DEPTH = 12;

export function sampleValue(schema: Schema, definitions: Record<string, Schema>, depth = 0): unknown {
  if (depth > MAX_DEPTH) return undefined;
  const node = resolveRef(schema, definitions);
  if (Object.hasOwn(node, 'const')) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  if (Object.hasOwn(node, 'default')) return node.default;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const [first] = Array.isArray(node[keyword]) ? (node[keyword] as Schema[]) : [];
    if (first !== undefined) return sampleValue(first, definitions, depth + 1);
  }
  if (Array.isArray(node.allOf)) {
    // Parts of one leaf (a placeholder under another's value): the first says the type, the others add members.
    const parts = (node.allOf as Schema[]).map((part) => sampleValue(part, definitions, depth + 1));
    return parts.every(isPlainObject) ? Object.assign({}, ...parts) : parts[0];
  }
  if (typeof node.format === 'string' && Object.hasOwn(FORMATTED, node.format)) return FORMATTED[node.format];
  const types = ([] as unknown[]).concat(node.type ?? (isPlainObject(node.properties) ? 'object' : []));
  switch (types.find((type) => type !== 'null')) {
    case 'object':
      return sampleObject(node, definitions, depth);
    case 'array': {
      const item = isPlainObject(node.items) ? sampleValue(node.items, definitions, depth + 1) : undefined;
      return item === undefined ? [] : [item];
    }
    case 'string':
      return 'example';
    case 'integer':
    case 'number':
      return Math.min(
        Math.max(1, typeof node.minimum === 'number' ? node.minimum : 1),
        typeof node.maximum === 'number' ? node.maximum : 1,
      );
    case 'boolean':
      return true;
    default:
      return undefined;
  }
}

function sampleObject(node: Schema, definitions: Record<string, Schema>, depth: number): Record<string, unknown> | undefined {
  const properties = isPlainObject(node.properties) ? (node.properties as Record<string, Schema>) : {};
  const object: Record<string, unknown> = {};
  for (const name of Array.isArray(node.required) ? (node.required as string[]) : []) {
    const value = Object.hasOwn(properties, name) ? sampleValue(properties[name]!, definitions, depth + 1) : undefined;
    if (value === undefined) return undefined;
    object[name] = value;
  }
  if (Object.keys(properties).length === 0 && isPlainObject(node.additionalProperties)) {
    const value = sampleValue(node.additionalProperties, definitions, depth + 1);
    if (value !== undefined) object.example = value;
  }
  return object;
}
