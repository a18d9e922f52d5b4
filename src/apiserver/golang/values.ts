/**
 * A decoded manifest read as Go reads its typed struct: a member that is absent (or, past a
 * failed schema check, of another type) is the zero value, so a rule ported from Go reads the
 * same conditions (`len(x) == 0`, `x == nil`) without guarding every access.
 */
import { isPlainObject } from '../../util/json.js';

/** A decoded JSON object, read member by member. */
export type Fields = Record<string, unknown>;

const EMPTY: Fields = Object.freeze({}) as Fields;

/** The object at `value`, or an empty one (Go's zero struct). */
export const object = (value: unknown): Fields => (isPlainObject(value) ? value : EMPTY);

/** Whether an optional pointer member is set (not absent, not null). */
export const isSet = (value: unknown): boolean => value !== undefined && value !== null;

export const string = (value: unknown): string => (typeof value === 'string' ? value : '');

export const number = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** One shared empty list for an absent one: most lists a check reads are absent. Never written to. */
const NO_ITEMS: unknown[] = Object.freeze([]) as unknown as unknown[];

export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : NO_ITEMS);

export const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(string) : (NO_ITEMS as string[]));

/** A map[string]string: the members that are strings (a schema check refuses the others). */
export const stringMap = (value: unknown): Array<[string, string]> =>
  Object.entries(object(value)).map(([key, item]) => [key, string(item)] as [string, string]);

/** Go's map lookup: present or not, and the value. */
export const has = (value: unknown, key: string): boolean => isPlainObject(value) && Object.hasOwn(value, key);

/**
 * A shallow copy of an object (an empty one for anything else), to be written. Object.assign, not
 * spread: V8 (Node 20) makes a spread copy slow to add members to, about 2 µs a copy.
 */
export const copyOf = (value: unknown): Fields => Object.assign({}, object(value));

/** A shallow copy of the object at `holder[key]` put in its place (an empty one where none is), to be written. */
export function copyOnWrite(holder: Fields, key: string): Fields {
  const copy = copyOf(holder[key]);
  holder[key] = copy;
  return copy;
}

/** Go's unicode.IsSpace, which strings.TrimSpace trims: JavaScript's trim() also takes U+FEFF and leaves U+0085. */
const GO_SPACE =
  /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

export const goTrimSpace = (text: string): string => text.replace(GO_SPACE, '');
