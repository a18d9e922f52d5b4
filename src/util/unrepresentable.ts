/**
 * Values no answer can carry as the caller wrote them, refused rather than answered with something
 * else, by the server (json-body.ts), the CLI and lint alike:
 * - lone UTF-16 surrogates: a JSON `\uD800` escape puts one in a string, but UTF-8 cannot carry it
 *   (YAML cannot write it; from a JSON escape kubectl reads U+FFFD);
 * - numbers a double does not hold: beyond its range (JSON.parse makes them Infinity, then null),
 *   below it (1e-400 becomes 0), and integers written with more digits than it keeps
 *   (9007199254740993 arrives as …992, 80.0000000000000001 as 80).
 */
import { toPointer } from './json.js';

/** With the `u` flag a surrogate pair is one code point, so only unpaired halves match. */
const LONE_SURROGATE = /[\ud800-\udfff]/u;
/** An escape of a surrogate in JSON text: without one, text read as UTF-8 parses to no lone surrogate. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

export interface Unrepresentable {
  /** Exact JSON Pointer of the number or string, or of the member whose name holds the surrogate. */
  pointer: string;
  /** What to tell the caller, with the surrogate written as an escape. */
  detail: string;
}

/** An exponent or 16 digits in a row: only such number literals can fail to survive as a double. */
const SUSPECT_NUMBER = /[0-9][eE]|[0-9]{16}/;

/** Whether JSON text may parse to an unrepresentable value: cheap, so only such bodies are walked. */
export function mayHoldUnrepresentable(jsonText: string): boolean {
  return SURROGATE_ESCAPE.test(jsonText) || SUSPECT_NUMBER.test(jsonText);
}

const NUMBER_TOKEN = /-?(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?/y;

/** Why a JSON number literal does not survive as a double, or undefined when it does. */
function numberLoss(token: string, value: number): string | undefined {
  if (!Number.isFinite(value)) return 'is too large to represent';
  const match = NUMBER_TOKEN.exec(token) ?? [];
  NUMBER_TOKEN.lastIndex = 0;
  const [, whole = '', fraction = '', exponent] = match;
  if (value === 0) return /[1-9]/.test(whole + fraction) ? 'is too small to represent: it would arrive as 0' : undefined;
  // Integers written out: the double must be the very integer, and a fraction must not vanish.
  if (exponent !== undefined) return undefined;
  const lostFraction = /[1-9]/.test(fraction) && Number.isInteger(value);
  const lostDigits = !/[1-9]/.test(fraction) && !Number.isSafeInteger(value) && BigInt(token.replace(/\..*$/, '')) !== BigInt(value);
  return lostFraction || lostDigits
    ? `has more digits than a JSON number keeps (a double): it would arrive as ${JSON.stringify(value)}`
    : undefined;
}

/** The first number literal of JSON text that does not survive parsing, with the value it became. */
function firstLostNumber(text: string): { value: number; why: string } | undefined {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      // Skip a string, escapes included.
      for (index++; index < text.length && text.charCodeAt(index) !== 0x22; index++) if (text.charCodeAt(index) === 0x5c) index++;
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      NUMBER_TOKEN.lastIndex = index;
      const token = NUMBER_TOKEN.exec(text)?.[0] ?? text[index]!;
      NUMBER_TOKEN.lastIndex = 0;
      const value = Number(token);
      const why = numberLoss(token, value);
      if (why !== undefined) return { value, why };
      index += token.length - 1;
    }
  }
  return undefined;
}

/** Where in `value` the number `target` stands (the first such place). */
function pointerOfNumber(value: unknown, target: number): string | undefined {
  const stack: Array<[unknown, string[]]> = [[value, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'number' && Object.is(node, target)) return toPointer(path);
    if (typeof node === 'object' && node !== null) {
      const entries = Object.entries(node);
      for (let index = entries.length - 1; index >= 0; index--) stack.push([entries[index]![1], [...path, entries[index]![0]]]);
    }
  }
  return undefined;
}

/** The first number of JSON `text` (parsed as `value`) that a double does not hold as written, with its pointer. */
function findLostNumber(value: unknown, text: string): Unrepresentable | undefined {
  const lost = firstLostNumber(text);
  if (lost === undefined) return undefined;
  const pointer = pointerOfNumber(value, lost.value) ?? '';
  return { pointer, detail: `the number at ${pointer || '/'} ${lost.why}` };
}

function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/**
 * The first unrepresentable value in `value`, member names before the values under them; given the
 * JSON text it was parsed from, also a number literal the parse changed (YAML's numbers are not
 * JSON's, so text that is not JSON is not given).
 */
export function findUnrepresentable(value: unknown, jsonText?: string): Unrepresentable | undefined {
  return findInValue(value) ?? (jsonText === undefined ? undefined : findLostNumber(value, jsonText));
}

function findInValue(value: unknown): Unrepresentable | undefined {
  const stack: Array<[unknown, string[]]> = [[value, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'number') {
      if (!Number.isFinite(node))
        return { pointer: toPointer(path), detail: `the number at ${toPointer(path) || '/'} is too large to represent` };
    } else if (typeof node === 'string') {
      if (hasLoneSurrogate(node)) return { pointer: toPointer(path), detail: `the string at ${toPointer(path) || '/'} ${WHY}` };
    } else if (typeof node === 'object' && node !== null) {
      const entries = Object.entries(node);
      for (const [key] of entries) {
        if (hasLoneSurrogate(key))
          return {
            pointer: toPointer([...path, key]),
            detail: `the member name ${shown(key)} in the object at ${toPointer(path) || '/'} ${WHY}`,
          };
      }
      // Pushed in reverse so that the first member is looked at first; array entries are keyed by index.
      for (let index = entries.length - 1; index >= 0; index--) stack.push([entries[index]![1], [...path, entries[index]![0]]]);
    }
  }
  return undefined;
}

const WHY =
  'holds a lone UTF-16 surrogate, which UTF-8 cannot carry (kubectl would read U+FFFD); send the whole character as a surrogate pair, or leave it out';

/** A member name as a JSON string, lone surrogates escaped, cut when long. */
function shown(key: string): string {
  return JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);
}
