/**
 * A schema node read with what it refers to: its `$ref` target and its `allOf` parts, where a
 * structural schema's properties, items, `required`, defaults and nullability are. Defaulting, null
 * pruning and optional nulls all read a node so.
 */
import { isPlainObject } from '../util/json.js';

type Node = Record<string, unknown>;

/** The node's parts, `$ref` and `allOf` read in. */
export function schemaParts(schema: Node | undefined, definitions: Record<string, unknown>): Node[] {
  if (schema === undefined) return [];
  const parts = [schema];
  if (typeof schema.$ref === 'string') {
    const target = definitions[schema.$ref.replace('#/definitions/', '')];
    if (isPlainObject(target)) parts.push(...schemaParts(target, definitions));
  }
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) if (isPlainObject(part)) parts.push(...schemaParts(part, definitions));
  return parts;
}

/** Whether null is a value of the node: OpenAPI's `nullable`, or null among its types, its enum or an anyOf branch (a nullable int-or-string). */
export const isNullable = (parts: Node[]): boolean =>
  parts.some(
    (part) =>
      part.nullable === true ||
      (Array.isArray(part.type) && part.type.includes('null')) ||
      (Array.isArray(part.enum) && part.enum.includes(null)) ||
      (Array.isArray(part.anyOf) && part.anyOf.some((branch) => isPlainObject(branch) && branch.type === 'null')),
  );
