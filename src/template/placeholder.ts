/**
 * Placeholders (CONTRACT §2): `{{ EXPR }}` inside a string of a section body, where EXPR is one or
 * more references `VAR.path` joined by `??`. This module turns a template string into a parsed
 * template, or says precisely what is wrong with it.
 */

export const VARIABLE_PATTERN = /^__[A-Z][A-Z0-9_]*__$/;
const REFERENCE_PATTERN = /^(__[A-Z][A-Z0-9_]*__)((?:\.[A-Za-z0-9_-]+)+)$/;
const SEGMENT_PATTERN = /^[A-Za-z0-9_-]+$/;
const OPEN = '{{';
const CLOSE = '}}';

/** One reference `VAR.path`; a segment of digits indexes an array. */
export interface Reference {
  variable: string;
  path: string[];
}

/** `A ?? B ?? …`: the first reference whose value is defined wins. */
export interface Expression {
  source: string;
  references: Reference[];
}

/** A string with no placeholder, exactly one placeholder, or placeholders inside longer text. */
export type ParsedTemplate =
  | { kind: 'literal'; text: string }
  | { kind: 'whole'; expression: Expression }
  | { kind: 'interpolation'; parts: Array<string | Expression> };

export class PlaceholderSyntaxError extends Error {
  constructor(
    message: string,
    /** Offset in the template string where the problem starts. */
    readonly offset: number,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'PlaceholderSyntaxError';
  }
}

export function referenceToString(reference: Reference): string {
  return `${reference.variable}.${reference.path.join('.')}`;
}

export function parseReference(text: string, offset = 0): Reference {
  const match = REFERENCE_PATTERN.exec(text);
  if (!match) {
    const dot = text.indexOf('.');
    const variable = dot === -1 ? text : text.slice(0, dot);
    if (!VARIABLE_PATTERN.test(variable)) {
      throw new PlaceholderSyntaxError(
        `"${text}" does not start with a template variable`,
        offset,
        'a reference is VAR.path, where VAR looks like __SVC_ID__ (two underscores, capitals, two underscores)',
      );
    }
    if (dot === -1) {
      throw new PlaceholderSyntaxError(
        `"${text}" names a variable but no path`,
        offset,
        `add the path of the input value, e.g. ${variable}.metadata`,
      );
    }
    const bad = text
      .slice(dot + 1)
      .split('.')
      .find((segment) => !SEGMENT_PATTERN.test(segment));
    throw new PlaceholderSyntaxError(
      `"${text}" has an invalid path segment "${bad ?? ''}"`,
      offset,
      'path segments are letters, digits, "_" or "-", separated by single dots',
    );
  }
  return { variable: match[1]!, path: match[2]!.slice(1).split('.') };
}

function parseExpression(source: string, offset: number): Expression {
  const trimmed = source.trim();
  if (trimmed === '') {
    throw new PlaceholderSyntaxError(
      'empty placeholder "{{}}"',
      offset,
      'write a reference inside the braces, e.g. {{ __SVC_ID__.metadata }}',
    );
  }
  const references = trimmed.split('??').map((alternative) => {
    const text = alternative.trim();
    if (text === '') {
      throw new PlaceholderSyntaxError(
        `"${trimmed}" has an empty alternative around "??"`,
        offset,
        'write a reference on both sides of "??", e.g. {{ __SC_ID__.spec.provisioner ?? __SC_ID__.provisioner }}',
      );
    }
    return parseReference(text, offset);
  });
  return { source: trimmed, references };
}

/** Parses one string of a section body. Throws PlaceholderSyntaxError for anything malformed. */
export function parseTemplate(text: string): ParsedTemplate {
  if (!text.includes(OPEN)) return { kind: 'literal', text };
  const parts: Array<string | Expression> = [];
  let cursor = 0;
  while (cursor < text.length) {
    const open = text.indexOf(OPEN, cursor);
    if (open === -1) {
      parts.push(text.slice(cursor));
      break;
    }
    if (open > cursor) parts.push(text.slice(cursor, open));
    const close = text.indexOf(CLOSE, open + OPEN.length);
    const nextOpen = text.indexOf(OPEN, open + OPEN.length);
    if (close === -1 || (nextOpen !== -1 && nextOpen < close)) {
      throw new PlaceholderSyntaxError(
        `placeholder opened with "{{" is not closed with "}}"`,
        open,
        'close it with "}}", e.g. "{{ __SVC_ID__.spec.ports }}"; "{{" has no other meaning and cannot appear in literal text',
      );
    }
    parts.push(parseExpression(text.slice(open + OPEN.length, close), open));
    cursor = close + CLOSE.length;
  }
  if (parts.length === 1 && typeof parts[0] !== 'string') {
    return { kind: 'whole', expression: parts[0]! };
  }
  return { kind: 'interpolation', parts };
}

/** Every expression of a parsed template, in order. */
export function expressionsOf(template: ParsedTemplate): Expression[] {
  if (template.kind === 'whole') return [template.expression];
  if (template.kind === 'interpolation') return template.parts.filter((part): part is Expression => typeof part !== 'string');
  return [];
}
