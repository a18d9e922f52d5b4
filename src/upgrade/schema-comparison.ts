/**
 * Comparing two input schemas for the compatibility check: the input paths a schema describes,
 * which of them are required, and whether a leaf accepts what it accepted before (annotations aside).
 */
import type { Schema } from '../kubernetes/kind-schema.js';
import { isPlainObject } from '../util/json.js';

/** Every input path a schema's properties describe, with its schema; not into $ref'd definitions. */
export function inputPaths(schema: Schema, prefix = '', into = new Map<string, Schema>()): Map<string, Schema> {
  const visit = (node: unknown, path: string) => {
    if (!isPlainObject(node)) return;
    if (isPlainObject(node.properties)) {
      for (const [name, child] of Object.entries(node.properties)) {
        const childPath = path ? `${path}.${name}` : name;
        into.set(childPath, child as Schema);
        visit(child, childPath);
      }
    }
    if (Array.isArray(node.allOf)) for (const part of node.allOf) visit(part, path);
    if (isPlainObject(node.items)) visit(node.items, path ? `${path}.*` : '*');
  };
  visit(schema, prefix);
  return into;
}

/** Input paths required from the root down (the schema's required chain). */
export function requiredPaths(schema: Schema): Set<string> {
  const required = new Set<string>();
  const visit = (node: unknown, path: string) => {
    if (!isPlainObject(node)) return;
    const names = Array.isArray(node.required) ? (node.required as string[]) : [];
    if (isPlainObject(node.properties)) {
      for (const [name, child] of Object.entries(node.properties)) {
        if (!names.includes(name)) continue;
        const childPath = path ? `${path}.${name}` : name;
        required.add(childPath);
        visit(child, childPath);
      }
    }
    if (Array.isArray(node.allOf)) for (const part of node.allOf) visit(part, path);
  };
  visit(schema, '');
  return required;
}

const ANNOTATIONS = new Set(['description', 'title', 'examples', 'default', '$comment', 'markdownDescription']);

/** A schema without annotations: what it accepts, and nothing else. */
function accepted(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(accepted);
  if (!isPlainObject(schema)) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !ANNOTATIONS.has(key))
      .map(([key, value]) => [key, accepted(value)]),
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const typesOf = (schema: Record<string, unknown>): string[] | undefined =>
  schema.type === undefined ? undefined : ([] as string[]).concat(schema.type as string | string[]);

/**
 * Whether every value `before` accepts, `after` accepts too, judged keyword by keyword (a sound
 * subset of JSON Schema's rules; whatever it cannot judge counts as narrowed). Nested properties are
 * input paths of their own and are compared as such.
 */
function accepts(after: Record<string, unknown>, before: Record<string, unknown>): boolean {
  if (same(after, before)) return true;
  if (Array.isArray(after.allOf) && !Array.isArray(before.allOf)) {
    // A new placeholder under an existing leaf adds a part: fine while the old leaf is one of the parts
    // and the new parts require nothing.
    const [kept, ...added] = after.allOf as Record<string, unknown>[];
    return kept !== undefined && accepts(kept, before) && added.every((part) => part.required === undefined);
  }
  for (const key of new Set([...Object.keys(after), ...Object.keys(before)])) {
    if (key === 'properties' || key === 'required') continue; // judged as input paths and required paths
    const a = after[key];
    const b = before[key];
    if (a === undefined) continue; // a constraint dropped only widens
    if (b === undefined) return false; // a constraint added narrows
    if (same(a, b)) continue;
    if (key === 'type') {
      const [typesAfter, typesBefore] = [typesOf(after)!, typesOf(before)!];
      if (!typesBefore.every((type) => typesAfter.includes(type) || (type === 'integer' && typesAfter.includes('number')))) return false;
    } else if (key === 'enum') {
      if (!(b as unknown[]).every((value) => (a as unknown[]).some((other) => same(other, value)))) return false;
    } else if ((key === 'items' || key === 'additionalProperties') && isPlainObject(a) && isPlainObject(b)) {
      if (!accepts(a, b)) return false;
    } else {
      return false;
    }
  }
  return true;
}

/** How a leaf's accepted values changed: not at all, widened, or anything else (breaking). */
export function compareLeaf(before: Schema, after: Schema): 'same' | 'wider' | 'changed' {
  const a = accepted(before) as Record<string, unknown>;
  const b = accepted(after) as Record<string, unknown>;
  const shallow = (schema: Record<string, unknown>) => JSON.stringify({ ...schema, properties: undefined, required: undefined });
  if (shallow(a) === shallow(b)) return 'same';
  return accepts(b, a) ? 'wider' : 'changed';
}

/** Whether two schemas accept the same values, whatever their annotations say. */
export const acceptsSame = (before: unknown, after: unknown): boolean => same(accepted(before), accepted(after));
