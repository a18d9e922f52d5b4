/**
 * JSON values written as YAML that kubectl reads back exactly (CONTRACT §6, issue 13).
 *
 * kubectl decodes manifests with sigs.k8s.io/yaml on go-yaml v2: YAML 1.1 resolution with Go's number
 * syntax (`0o17`, `0X1F`, `1_0`, `+_1` are numbers; `y`, `on`, `~`, `.inf` are not strings), a reader
 * that refuses control characters and takes U+0085, U+2028, U+2029 and CR for line breaks, implicit
 * keys of at most 1024 characters and `<<` as a merge key. General YAML writers get some of this
 * wrong, so manifests are written here with a small subset of block YAML whose reading is certain:
 *
 * - a string is plain only when a conservative test says go-yaml v2 reads it as that same string
 *   (`name: web`, `image: nginx:1.25`, `storage: 10Gi`); anything else is double-quoted, with an
 *   escape for every character the reader refuses or folds;
 * - text of several lines is a literal block with an explicit indentation indicator and chomping
 *   (`|2-`, `|2`, `|2+`) when every character may appear raw and no line of only whitespace leads
 *   or ends it, double-quoted otherwise;
 * - a key whose written form is longer than an implicit key may be takes the explicit `? key` form;
 * - numbers are JSON's number text, which go-yaml v2 resolves to the value kubectl reads from JSON.
 */

/** go-yaml v2 forgets a possible implicit key once it runs over 1024 characters (code points). */
const IMPLICIT_KEY_LIMIT = 1024;

/** Characters a plain scalar may hold: no indicator that matters in block context, no whitespace but space. */
const PLAIN_CHARACTERS = /^[A-Za-z0-9_./][A-Za-z0-9_./ :=+@,%()~-]*$/;
/** Every character of a Go integer (base prefixes, hex digits, `_`, sign), YAML float or timestamp. */
const NUMBER_OR_TIMESTAMP_CHARACTERS = /^[0-9a-fA-FxXoO_+\-.:tTzZ ]*$/;
/** Words go-yaml v2 resolves to booleans or null, in any letter case to stay clear of look-alikes. */
const RESOLVED_WORDS = new Set(['y', 'yes', 'n', 'no', 'true', 'false', 'on', 'off', 'null']);

/**
 * Characters that may not appear raw: C0 controls (tab and LF are handled apart), DEL and C1 (the
 * reader refuses them, U+0085 is a line break), U+2028 and U+2029 (line breaks), U+FEFF (a byte order
 * mark, skipped at the start of a line), U+FFFE and U+FFFF (refused), and lone surrogates.
 */
const NOT_RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udfff]/u;
/** What a double-quoted scalar escapes: the above, tab, LF, the quote and the backslash. */
const DOUBLE_QUOTED_ESCAPES = /["\\\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udfff]/gu;
const NAMED_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** Thrown when the YAML text of a value would pass the length it was given. */
export class YamlTooLong extends Error {
  constructor(readonly maxLength: number) {
    super(`the YAML text passes ${maxLength} characters`);
    this.name = 'YamlTooLong';
  }
}

/** The lines written so far, and their length with line breaks: indentation can make YAML many times longer than its JSON. */
class Lines {
  readonly text: string[] = [];
  private length = 0;

  constructor(private readonly maxLength: number) {}

  push(line: string): void {
    this.length += line.length + 1;
    if (this.length > this.maxLength) throw new YamlTooLong(this.maxLength);
    this.text.push(line);
  }
}

/**
 * One YAML document for `value`, ending in a newline. Throws on values JSON cannot carry, and
 * YamlTooLong as soon as the text passes `maxLength` characters, without writing the rest.
 */
export function toKubectlYaml(value: unknown, maxLength = Infinity): string {
  const lines = new Lines(maxLength);
  if (isNonEmptyCollection(value)) writeCollection(value, 0, lines);
  // At the root no collection sets the indentation: go-yaml v2 puts a literal block's content at column 2.
  else writeScalar('', value, 2, lines);
  return lines.text.join('\n') + '\n';
}

/** Whether go-yaml v2 reads `text`, unquoted, as exactly this string wherever a value or key may stand. */
function isSafePlainScalar(text: string): boolean {
  if (!PLAIN_CHARACTERS.test(text) || text.endsWith(' ') || text.endsWith(':') || text.includes(': ')) return false;
  const first = text.charCodeAt(0);
  // `.` leads `.inf`, `.nan`, floats such as `.5`, and the document end `...` at the start of a line.
  if (first === 0x2e) return /^\.[A-Za-z]/.test(text) && !/^\.(inf|nan)$/i.test(text);
  // A digit leads Go integers (0o17, 0X1F, 1_0), floats (1e1_0) and timestamps (2001-12-14): plain
  // only with a character none of them has, such as the unit of `10Gi` or the slash of `80/TCP`.
  if (first >= 0x30 && first <= 0x39) return !NUMBER_OR_TIMESTAMP_CHARACTERS.test(text);
  return !RESOLVED_WORDS.has(text.toLowerCase());
}

/** A double-quoted scalar on one line, with the escapes go-yaml v2 knows (`\xXX`, `\uXXXX`, `\t`, `\n` …). */
function doubleQuoted(text: string): string {
  return `"${text.replace(DOUBLE_QUOTED_ESCAPES, (character) => {
    const named = NAMED_ESCAPES[character];
    if (named !== undefined) return named;
    const code = character.charCodeAt(0);
    if (code >= 0xd800 && code <= 0xdfff) throw new TypeError(`a lone UTF-16 surrogate (\\u${hex(code, 4)}) cannot be written as YAML`);
    return code <= 0xff ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
  })}"`;
}

function hex(code: number, digits: number): string {
  return code.toString(16).toUpperCase().padStart(digits, '0');
}

function isNonEmptyCollection(value: unknown): value is object {
  if (Array.isArray(value)) return value.length > 0;
  return typeof value === 'object' && value !== null && Object.values(value).some((member) => member !== undefined);
}

/** A non-empty mapping or sequence whose entries start at column `indent`. */
function writeCollection(value: object, indent: number, lines: Lines): void {
  const pad = ' '.repeat(indent);
  if (Array.isArray(value)) {
    // JSON writes undefined items as null; so do we.
    for (const item of value) writeEntry(`${pad}- `, `${pad}-`, item === undefined ? null : item, indent, lines, true);
    return;
  }
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined) continue; // as JSON.stringify
    let keyText = isSafePlainScalar(key) ? key : doubleQuoted(key);
    // UTF-8 bytes bound the code points go-yaml counts; a UTF-16 unit is at most 3 bytes, so short keys skip the count.
    if (keyText.length * 3 > IMPLICIT_KEY_LIMIT && Buffer.byteLength(keyText) > IMPLICIT_KEY_LIMIT) {
      lines.push(`${pad}? ${keyText}`);
      keyText = '';
    }
    writeEntry(`${pad}${keyText}: `, `${pad}${keyText}:`, member, indent, lines, false);
  }
}

/**
 * One entry of a collection at column `indent`: `inline` precedes a value on the same line, `alone`
 * stands on its line when a mapping or sequence follows below. A sequence item that is itself a
 * collection starts on the dash's line (`- name: web`, `- - a`), as YAML allows.
 */
function writeEntry(inline: string, alone: string, value: unknown, indent: number, lines: Lines, compact: boolean): void {
  if (!isNonEmptyCollection(value)) {
    writeScalar(inline, value, indent + 2, lines);
    return;
  }
  if (!compact) {
    lines.push(alone);
    writeCollection(value, indent + 2, lines);
    return;
  }
  const start = lines.text.length;
  writeCollection(value, indent + 2, lines);
  // As long as the line it replaces: the dash and space take the place of the indentation.
  lines.text[start] = inline + lines.text[start]!.slice(indent + 2);
}

/**
 * A scalar or empty collection after `prefix`; for a literal block, the lines of its content follow
 * at column `contentIndent` (the collection's column plus the indentation indicator 2).
 */
function writeScalar(prefix: string, value: unknown, contentIndent: number, lines: Lines): void {
  if (typeof value !== 'string') lines.push(prefix + nonStringText(value));
  else if (isSafePlainScalar(value)) lines.push(prefix + value);
  else if (isLiteralBlockText(value)) writeLiteralBlock(prefix, value, contentIndent, lines);
  else lines.push(prefix + doubleQuoted(value));
}

/** null, booleans, JSON's number text, and `{}` or `[]` for an empty collection. */
function nonStringText(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return String(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${value} is not a JSON number`);
      return JSON.stringify(value);
    case 'object':
      return Array.isArray(value) ? '[]' : '{}';
    default:
      throw new TypeError(`a ${typeof value} is not a JSON value`);
  }
}

/**
 * Text of several lines that a literal block carries exactly: every character raw, and a line with
 * other characters than spaces and tabs before and after every line of only spaces and tabs. A
 * block's leading or trailing line of only whitespace is where readers part: go-yaml reads
 * `|2` + `   ` as " \n", the `yaml` library and any tool that trims trailing whitespace (editors,
 * terminals, patches) as "" (issue 33); such text is double-quoted.
 */
function isLiteralBlockText(text: string): boolean {
  if (!text.includes('\n') || NOT_RAW.test(text)) return false;
  const lines = text.split('\n');
  const first = lines.findIndex(hasContent);
  if (first === -1) return false; // only line breaks, spaces and tabs
  let last = lines.length - 1;
  while (!hasContent(lines[last]!)) last--;
  const blank = (line: string) => line === '';
  return lines.slice(0, first).every(blank) && lines.slice(last + 1).every(blank);
}

const hasContent = (line: string): boolean => /[^ \t]/.test(line);

/**
 * `|2-` (no final line break), `|2` (one) or `|2+` (several, kept). The explicit indicator lets a
 * first line start with spaces or a tab, or be blank; empty lines are written without indentation.
 */
function writeLiteralBlock(prefix: string, text: string, contentIndent: number, lines: Lines): void {
  let finalBreaks = 0; // counted by hand: /\n+$/ takes quadratic time on a long run of line breaks
  while (text.charCodeAt(text.length - 1 - finalBreaks) === 0x0a) finalBreaks++;
  const chomping = finalBreaks === 0 ? '-' : finalBreaks === 1 ? '' : '+';
  const body = finalBreaks === 0 ? text : text.slice(0, -1);
  const pad = ' '.repeat(contentIndent);
  lines.push(`${prefix}|2${chomping}`);
  // One push per line: spreading a long text's lines into push() would overflow the stack.
  for (const line of body.split('\n')) lines.push(line === '' ? '' : pad + line);
}
