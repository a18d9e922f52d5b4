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
/** Sets an own member, `__proto__` included (plain assignment would set the prototype instead): for copies of parsed JSON. */
export function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

export function isPathPrefix(prefix: readonly string[], path: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, index) => segment === path[index]);
}

/** One RFC 6901 reference token: `~` and `/` escaped. Most names have neither, so most cost one scan. */
export function escapePointerSegment(segment: string | number): string {
  const text = String(segment);
  return text.includes('~') || text.includes('/') ? text.replace(/~/g, '~0').replace(/\//g, '~1') : text;
}

export function unescapePointerSegment(segment: string): string {
  return segment.includes('~') ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : segment;
}

/** RFC 6901 JSON Pointer from path segments. */
export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((segment) => '/' + escapePointerSegment(segment)).join('');
}

export function fromPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map(unescapePointerSegment);
}

/** Characters of a value's JSON Pointer that count as one more value: naming a value in a problem is work too. */
export const POINTER_CHARACTERS_PER_VALUE = 256;

/**
 * Every object, array, string, number, boolean and null in `value`, itself included, each counting
 * one more per POINTER_CHARACTERS_PER_VALUE characters of its JSON Pointer (`value`'s own pointer
 * is `pointerLength` long): a measure of the work of checking it and naming its problems, for a
 * problem's pointer is built, compared and hashed, and long member names deep down make every
 * pointer below them long. Stops counting once past `stopAbove`.
 */
export function countJsonValues(value: unknown, pointerLength = 0, stopAbove = Infinity): number {
  let count = 0;
  const nodes: unknown[] = [value];
  const lengths: number[] = [pointerLength];
  while (nodes.length > 0 && count <= stopAbove) {
    const node = nodes.pop();
    const length = lengths.pop()!;
    count += 1 + Math.floor(length / POINTER_CHARACTERS_PER_VALUE);
    if (typeof node !== 'object' || node === null) continue;
    for (const key of Object.keys(node)) {
      nodes.push((node as Record<string, unknown>)[key]);
      lengths.push(length + 1 + key.length);
    }
  }
  return count;
}
