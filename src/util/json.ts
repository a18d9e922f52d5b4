/** JSON values as they come from JSON.parse, and the few helpers every module needs. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads an own member only: inherited members such as `__proto__` or `constructor` never resolve. */
export function ownMember(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value) && !/^(0|[1-9][0-9]*)$/.test(key)) return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/** Whether `prefix` is `path` or one of its ancestors, segment by segment. */
export function isPathPrefix(prefix: readonly string[], path: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, index) => segment === path[index]);
}

/** RFC 6901 JSON Pointer from path segments. */
export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((segment) => '/' + String(segment).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

export function fromPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}
