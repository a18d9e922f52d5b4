/**
 * What keeps the cost of a custom resource's CEL rules bounded: rules run only on values within the
 * sizes the schema declares (maxItems, maxProperties, maxLength), which the schema check refuses
 * otherwise, as the API server's cost estimate assumes. (Defaults: src/schema/structural-defaults.ts.)
 */
import { isPlainObject } from '../util/json.js';

type Node = Record<string, unknown>;

const childSchema = (schema: Node, name: string): Node | undefined => {
  const properties = isPlainObject(schema.properties) ? schema.properties : undefined;
  const member = properties?.[name] ?? schema.additionalProperties;
  return isPlainObject(member) ? member : undefined;
};

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
