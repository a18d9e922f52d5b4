/**
 * A decoded manifest read as Go reads its typed struct: a member that is absent (or, past a
 * failed schema check, of another type) is the zero value, so a rule ported from Go reads the
 * same conditions (`len(x) == 0`, `x == nil`) without guarding every access.
 */
import { isPlainObject } from '../util/json.js';

/** A decoded JSON object, read member by member. */
export type Fields = Record<string, unknown>;

const EMPTY: Fields = Object.freeze({}) as Fields;

/** The object at `value`, or an empty one (Go's zero struct). */
export const object = (value: unknown): Fields => (isPlainObject(value) ? value : EMPTY);

/** Whether an optional pointer member is set (not absent, not null). */
export const isSet = (value: unknown): boolean => value !== undefined && value !== null;

export const string = (value: unknown): string => (typeof value === 'string' ? value : '');

export const number = (value: unknown): number => (typeof value === 'number' ? value : 0);

export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export const strings = (value: unknown): string[] => list(value).map(string);

/** A map[string]string: the members that are strings (a schema check refuses the others). */
export const stringMap = (value: unknown): Array<[string, string]> =>
  Object.entries(object(value)).map(([key, item]) => [key, string(item)] as [string, string]);

/** Go's map lookup: present or not, and the value. */
export const has = (value: unknown, key: string): boolean => isPlainObject(value) && Object.hasOwn(value, key);
