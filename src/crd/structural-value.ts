/**
 * What the API server does to a custom resource before its CEL rules see it, and what keeps their
 * cost bounded: defaults filled in where a member is missing (structural defaulting), and rules run
 * only on values within the sizes the schema declares (maxItems, maxProperties, maxLength), which
 * the schema check refuses otherwise, as the API server's cost estimate assumes.
 */
import { isPlainObject } from '../util/json.js';

type Node = Record<string, unknown>;

const childSchema = (schema: Node, name: string): Node | undefined => {
  const properties = isPlainObject(schema.properties) ? schema.properties : undefined;
  const member = properties?.[name] ?? schema.additionalProperties;
  return isPlainObject(member) ? member : undefined;
};

/** A copy of `value` with the schema's defaults where members are missing; the value itself is never changed. */
export function withDefaults(value: unknown, schema: Node): unknown {
  if (Array.isArray(value)) return isPlainObject(schema.items) ? value.map((item) => withDefaults(item, schema.items as Node)) : value;
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    const child = childSchema(schema, name);
    result[name] = child === undefined ? member : withDefaults(member, child);
  }
  if (isPlainObject(schema.properties)) {
    for (const [name, member] of Object.entries(schema.properties)) {
      if (!Object.hasOwn(result, name) && isPlainObject(member) && member.default !== undefined)
        result[name] = withDefaults(structuredClone(member.default), member);
    }
  }
  return result;
}

/** False when the value, or anything in it, is larger than its schema allows. */
export function withinBounds(value: unknown, schema: Node): boolean {
  if (typeof value === 'string') return typeof schema.maxLength !== 'number' || [...value].length <= schema.maxLength;
  if (Array.isArray(value)) {
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) return false;
    return !isPlainObject(schema.items) || value.every((item) => withinBounds(item, schema.items as Node));
  }
  if (!isPlainObject(value)) return true;
  const entries = Object.entries(value);
  if (typeof schema.maxProperties === 'number' && entries.length > schema.maxProperties) return false;
  return entries.every(([name, member]) => {
    const child = childSchema(schema, name);
    return child === undefined || withinBounds(member, child);
  });
}
