/**
 * A JSON file of a repository, kept with its text and syntax tree so that every message about it
 * can point at a line and column. A `.yaml`/`.yml` file (CRDs) is read as YAML with the same tree.
 */
import { readFileSync } from 'node:fs';
import { type Node, type ParseError, findNodeAtLocation, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { JsonValue } from '../util/json.js';
import { parseYamlTree } from './yaml-tree.js';

export interface Position {
  line: number;
  column: number;
}

export interface SyntaxProblem extends Position {
  message: string;
}

export class SourceFile {
  readonly text: string;
  /** The parsed value, or undefined when the file is not valid JSON. */
  readonly value: JsonValue | undefined;
  readonly syntaxErrors: SyntaxProblem[] = [];
  private readonly tree: Node | undefined;
  private lineStarts: number[] | undefined;

  constructor(
    /** Path as shown in messages. */
    readonly path: string,
    text?: string,
  ) {
    this.text = text ?? readFileSync(path, 'utf8');
    if (/\.ya?ml$/i.test(path)) {
      const yaml = parseYamlTree(this.text);
      ({ tree: this.tree, value: this.value } = yaml);
      for (const error of yaml.errors) this.syntaxErrors.push({ ...this.position(error.offset), message: error.message });
      return;
    }
    const errors: ParseError[] = [];
    this.tree = parseTree(this.text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
    for (const error of errors) {
      this.syntaxErrors.push({ ...this.position(error.offset), message: describeSyntaxError(printParseErrorCode(error.error)) });
    }
    if (errors.length === 0) {
      try {
        this.value = JSON.parse(this.text) as JsonValue;
      } catch (error) {
        // jsonc-parser is more lenient than JSON.parse in a few corners (e.g. control characters).
        const match = /position (\d+)/.exec(String(error));
        this.syntaxErrors.push({ ...this.position(match ? Number(match[1]) : 0), message: `invalid JSON: ${(error as Error).message}` });
      }
    }
  }

  position(offset: number): Position {
    if (this.lineStarts === undefined) {
      this.lineStarts = [0];
      for (let index = 0; index < this.text.length; index++) if (this.text[index] === '\n') this.lineStarts.push(index + 1);
    }
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - this.lineStarts[low]! + 1 };
  }

  /**
   * Where a character of a string value sits: `offset` counts characters of the parsed string.
   * Exact for strings without escapes, which template strings nearly always are.
   */
  locateInString(path: readonly (string | number)[], offset: number): Position {
    const node =
      this.tree === undefined
        ? undefined
        : findNodeAtLocation(this.tree, path.map((s) => (/^[0-9]+$/.test(String(s)) ? Number(s) : s)) as (string | number)[]);
    if (node === undefined || node.type !== 'string') return this.locate(path);
    // Walk the raw string, counting each escape (\n, \u0041, …) as the one character it stands for.
    let raw = node.offset + 1;
    for (let parsed = 0; parsed < offset && raw < node.offset + node.length - 1; parsed++) {
      raw += this.text[raw] !== '\\' ? 1 : this.text[raw + 1] === 'u' ? 6 : 2;
    }
    return this.position(raw);
  }

  /** Members named twice in one object: JSON.parse keeps only the last, so the first is silently lost. */
  duplicateMembers(): Array<{ name: string; position: Position }> {
    const found: Array<{ name: string; position: Position }> = [];
    const visit = (node: Node | undefined): void => {
      if (node === undefined) return;
      if (node.type === 'object') {
        const seen = new Set<string>();
        for (const property of node.children ?? []) {
          const name = String(property.children?.[0]?.value);
          if (seen.has(name)) found.push({ name, position: this.position(property.offset) });
          seen.add(name);
        }
      }
      for (const child of node.children ?? []) visit(child);
    };
    visit(this.tree);
    return found;
  }

  /**
   * Where a member or element sits: the position of its name for a member (the line an author
   * edits), of its value for an element. Falls back to the nearest existing ancestor.
   */
  locate(path: readonly (string | number)[]): Position {
    if (this.tree === undefined) return { line: 1, column: 1 };
    for (let length = path.length; length >= 0; length--) {
      const segments = path.slice(0, length).map((segment) => (/^[0-9]+$/.test(String(segment)) ? Number(segment) : segment));
      const node = findNodeAtLocation(this.tree, segments as (string | number)[]);
      if (node === undefined) continue;
      const anchor = node.parent?.type === 'property' ? node.parent : node;
      return this.position(anchor.offset);
    }
    return { line: 1, column: 1 };
  }
}

function describeSyntaxError(code: string): string {
  const words: Record<string, string> = {
    InvalidSymbol: 'unexpected character',
    InvalidNumberFormat: 'invalid number',
    PropertyNameExpected: 'expected a member name in double quotes',
    ValueExpected: 'expected a value',
    ColonExpected: 'expected ":" after the member name',
    CommaExpected: 'expected "," between members or elements',
    CloseBraceExpected: 'expected "}" to close the object',
    CloseBracketExpected: 'expected "]" to close the array',
    EndOfFileExpected: 'unexpected content after the end of the JSON value',
    InvalidCommentToken: 'comments are not allowed in JSON',
    UnexpectedEndOfComment: 'comments are not allowed in JSON',
    UnexpectedEndOfString: 'string is not closed with a double quote',
    UnexpectedEndOfNumber: 'number ends unexpectedly',
    InvalidUnicode: 'invalid \\u escape',
    InvalidEscapeCharacter: 'invalid escape character',
    InvalidCharacter: 'invalid character in string',
  };
  return `invalid JSON: ${words[code] ?? code}`;
}
