/**
 * Lone UTF-16 surrogates: a JSON `\uD800` escape puts one in a string, but UTF-8 cannot carry it, so
 * no answer can hold it exactly (YAML cannot write it; from a JSON escape kubectl reads U+FFFD).
 * Requests that hold one are refused, by the server (json-body.ts) and the CLI alike.
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

/** A number literal of 3+ exponent digits or 309+ digits: the only ones that can leave a double's range. */
const HUGE_NUMBER = /[0-9][eE][+]?[0-9]{3}|[0-9]{309}/;

/** Whether JSON text may parse to an unrepresentable value: cheap, so only such bodies are walked. */
export function mayHoldUnrepresentable(jsonText: string): boolean {
  return SURROGATE_ESCAPE.test(jsonText) || HUGE_NUMBER.test(jsonText);
}

function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** The first unrepresentable value in `value`; member names before the values under them. */
export function findUnrepresentable(value: unknown): Unrepresentable | undefined {
  const stack: Array<[unknown, string[]]> = [[value, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) return { pointer: toPointer(path), detail: `the number at ${toPointer(path) || '/'} is too large to represent` };
    } else if (typeof node === 'string') {
      if (hasLoneSurrogate(node)) return { pointer: toPointer(path), detail: `the string at ${toPointer(path) || '/'} ${WHY}` };
    } else if (typeof node === 'object' && node !== null) {
      const entries = Object.entries(node);
      for (const [key] of entries) {
        if (hasLoneSurrogate(key)) return { pointer: toPointer([...path, key]), detail: `the member name ${shown(key)} in the object at ${toPointer(path) || '/'} ${WHY}` };
      }
      // Pushed in reverse so that the first member is looked at first; array entries are keyed by index.
      for (let index = entries.length - 1; index >= 0; index--) stack.push([entries[index]![1], [...path, entries[index]![0]]]);
    }
  }
  return undefined;
}

const WHY = 'holds a lone UTF-16 surrogate, which UTF-8 cannot carry (kubectl would read U+FFFD); send the whole character as a surrogate pair, or leave it out';

/** A member name as a JSON string, lone surrogates escaped, cut when long. */
function shown(key: string): string {
  return JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);
}
