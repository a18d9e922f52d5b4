/**
 * What is wrong with text that JSON.parse refused, and where: the first offending character, by line
 * and column, in words a JSON writer acts on. Node 20's messages carry no position for an unexpected
 * token, so they cannot say it; jsonc-parser's strict scan finds the token, and the string and number
 * rules below find the character within it. Nothing of the text is quoted: a body may hold secrets.
 */
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';

export interface JsonSyntaxError {
  /** 1-based, as editors count. */
  line: number;
  column: number;
  /** What is wrong there, e.g. `a comma before "]": JSON allows no trailing comma`. */
  cause: string;
}

/** Where `text` stops being JSON; undefined when it is JSON. Whitespace-only text is empty, not cut short. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const errors: ParseError[] = [];
    parse(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
    const found = errors[0] === undefined ? fromNode(text, (error as Error).message) : describe(text, errors[0]);
    return { ...lineAndColumn(text, found.offset), cause: found.cause };
  }
}

/** `at line L, column C: cause`, the one wording of the server and the CLI. */
export function describeJsonSyntaxError(found: JsonSyntaxError): string {
  return `at line ${found.line}, column ${found.column}: ${found.cause}`;
}

/** As editors count: CR LF, LF and a lone CR each end a line; a byte order mark is no column. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const lines = text.slice(0, offset).split(/\r\n|\r|\n/);
  const last = lines.at(-1)!;
  return { line: lines.length, column: last.length + 1 - (lines.length === 1 && last.startsWith('\ufeff') ? 1 : 0) };
}

interface Found {
  offset: number;
  cause: string;
}

/** jsonc-parser is more lenient than JSON.parse in a few corners; then Node's position, when it gives one. */
function fromNode(text: string, message: string): Found {
  const match = /position (\d+)/.exec(message);
  return { offset: match ? Number(match[1]) : 0, cause: 'this is not valid JSON here' };
}

const CLOSER_WORDS: Record<string, string> = { '}': 'the object', ']': 'the array' };

/** The offset of the last character before `offset` that is not whitespace, or -1. */
function previousToken(text: string, offset: number): number {
  let at = offset - 1;
  while (at >= 0 && /\s/.test(text[at]!)) at--;
  return at;
}

/** Whether `text` is one whole JSON value: then what follows it is the mistake. */
function completes(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function atEnd(text: string, offset: number): boolean {
  return text.slice(offset).trim() === '';
}

function describe(text: string, error: ParseError): Found {
  const { offset } = error;
  // A const enum, which verbatimModuleSyntax cannot read: its names instead.
  const code = printParseErrorCode(error.error);
  const char = text[offset];
  if (text.trim() === '') return { offset: 0, cause: 'there is no JSON value: the text is empty' };
  if (atEnd(text, offset) && code !== 'UnexpectedEndOfString')
    return { offset: text.length, cause: 'it ends before the JSON value is complete: cut short, or a closing "}" or "]" is missing' };
  const comment = code === 'InvalidCommentToken' || code === 'UnexpectedEndOfComment';
  if (comment) return { offset, cause: 'a comment: JSON has none' };
  if (completes(text.slice(0, offset))) return { offset, cause: 'text after the end of the JSON value: send one value' };
  const before = previousToken(text, offset);
  if ((char === '}' || char === ']') && text[before] === ',')
    return { offset: before, cause: `a comma before the "${char}" that closes ${CLOSER_WORDS[char]}: JSON allows no trailing comma` };
  switch (code) {
    case 'InvalidSymbol':
      return { offset, cause: invalidSymbol(text, offset, before) };
    case 'ValueExpected':
      if (char === ',') return { offset, cause: 'a comma where a value belongs: two commas in a row, or a comma after "[" or ":"' };
      if (char === '}' || char === ']')
        return { offset, cause: `a "${char}" where a value belongs: nothing opened ${CLOSER_WORDS[char]} it closes` };
      return { offset, cause: 'a value belongs here' };
    case 'PropertyNameExpected':
      return { offset, cause: 'a member name belongs here, in double quotes' };
    case 'ColonExpected':
      return { offset, cause: 'a ":" belongs between a member name and its value' };
    case 'CommaExpected':
      if (text[before] === '0' && /[0-9]/.test(char ?? '') && !/[0-9.eE+-]/.test(text[before - 1] ?? ''))
        return { offset: before, cause: 'a number starts with 0 and more digits: JSON numbers have no leading zeros' };
      return { offset, cause: 'a comma belongs between two members or elements' };
    case 'CloseBraceExpected':
      return { offset, cause: 'a comma or the "}" that closes the object belongs here' };
    case 'CloseBracketExpected':
      return { offset, cause: 'a comma or the "]" that closes the array belongs here' };
    case 'EndOfFileExpected':
      return { offset, cause: 'text after the end of the JSON value: send one value' };
    default:
      return inToken(text, error);
  }
}

/** A word or character that starts no JSON value: a misspelt literal, a quote that is not `"`, or YAML. */
function invalidSymbol(text: string, offset: number, before: number): string {
  const char = text[offset]!;
  // The body's first word followed by ":", a "---" or a "#" comment: YAML.
  if (before === -1 && (/^(---|#)/.test(text.slice(offset)) || /^[\w-]+\s*:/.test(text.slice(offset))))
    return 'this reads as YAML, not JSON: send JSON, e.g. convert the file with yq -o json';
  if (char === "'") return 'a single quote: JSON strings and member names take double quotes';
  if (/[-+.0-9]/.test(char)) return 'a number without digits after its sign, point or exponent, or with a "+" or "." first';
  if (!/[A-Za-z_]/.test(char)) return 'a character that starts no JSON value';
  const word = /^[A-Za-z_][\w-]*/.exec(text.slice(offset))![0];
  if (text[before] === '{' || text[before] === ',')
    return 'a member name without double quotes: JSON member names are strings in double quotes';
  if (['true', 'false', 'null'].some((literal) => literal.startsWith(word.toLowerCase())))
    return 'a word that is not a JSON value: true, false and null are written in full, in lowercase';
  return 'a word that is not a JSON value: strings take double quotes, and the only words are true, false and null';
}

/** An error inside a string or number token: the character within it. */
function inToken(text: string, { error, offset, length }: ParseError): Found {
  const code = printParseErrorCode(error);
  if (code === 'UnexpectedEndOfString') {
    // The scan ends a string at a line break: one the string goes on after is a raw control character in it.
    const end = offset + length;
    if (/^[\r\n][^\r\n]*"/.test(text.slice(end)))
      return { offset: end, cause: 'a line break in a string: write it escaped, as \\n, or close the string before it' };
    return { offset, cause: 'a string that is never closed: a double quote is missing before the end of its line' };
  }
  if (code === 'UnexpectedEndOfNumber' || code === 'InvalidNumberFormat')
    return { offset, cause: 'a number without digits after its sign, point or exponent' };
  for (let at = offset + 1; at < offset + length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x20) return { offset: at, cause: 'a control character in a string: write it escaped, e.g. \\n or \\t' };
    if (code !== 0x5c) continue;
    const next = text[at + 1] ?? '';
    if (next === 'u' && !/^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6)))
      return { offset: at, cause: 'a \\u escape without four hex digits' };
    if (!'"\\/bfnrtu'.includes(next) || next === '')
      return { offset: at, cause: 'an escape JSON does not have: it has \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX' };
    at++;
  }
  return { offset, cause: 'a string that is not valid JSON' };
}
