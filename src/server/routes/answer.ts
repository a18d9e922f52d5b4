/** What the exec routes share: query parameters, the Warning headers, and 422 answers. */
import type { Context } from 'koa';
import { FORMATS, isFormat, MEDIA_TYPES, type Format } from '../../manifest/format.js';
import type { RenderError } from '../../render/render-error.js';
import { UNKNOWN_MEMBER_LIMIT } from '../../schema/unknown-members.js';
import { HttpProblem } from '../problem.js';
import { queryParam } from './lookup.js';

export const CONTENT_TYPES = { json: `${MEDIA_TYPES.json}; charset=utf-8`, yaml: MEDIA_TYPES.yaml } as const;

/** A Warning header value (RFC 9111 §5.5 form, as the Kubernetes API server sends), printable ASCII only. */
export function warningHeader(text: string): string {
  const quoted = text.replace(/[\\"]/g, (c) => '\\' + c).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `299 - "${quoted}"`;
}

/** Warning headers per answer, and characters per pointer in one: headers must stay small. */
const MAX_WARNINGS = 20;
const MAX_POINTER_LENGTH = 200;

/** Warning headers from texts: at most MAX_WARNINGS, each cut to a readable length, then a count of the rest. */
export function warningHeaders(texts: string[], rest: (count: number) => string): string[] {
  const shown = texts.slice(0, MAX_WARNINGS).map((text) => warningHeader(text));
  if (texts.length > shown.length) shown.push(warningHeader(rest(texts.length - shown.length)));
  return shown;
}

const cut = (text: string) => (text.length > MAX_POINTER_LENGTH ? `${text.slice(0, MAX_POINTER_LENGTH)}…` : text);

export function unknownFieldWarnings(pointers: string[]): string[] {
  return warningHeaders(
    pointers.map((pointer) => `unknown field "${cut(pointer)}"`),
    (count) => `${count}${pointers.length >= UNKNOWN_MEMBER_LIMIT ? ' or more' : ''} more unknown fields`,
  );
}

export function unusedValuesWarnings(ids: string[]): string[] {
  return warningHeaders(
    ids.map((id) => `values entry "${cut(id)}" is not read by any resource`),
    (count) => `${count} more values entries are not read by any resource`,
  );
}

function booleanParam(value: string | undefined, name: string): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true' || value === '') return true;
  throw new HttpProblem(400, 'bad-request', 'Bad request', `query parameter ${name} must be true or false, not "${value}"`);
}

export function formatParam(ctx: Context): Format {
  const format = queryParam(ctx, 'format') ?? 'json';
  if (!isFormat(format)) throw new HttpProblem(400, 'bad-request', 'Bad request', `format "${format}" is not supported; use one of ${FORMATS.join(', ')}`, { allowed: FORMATS });
  return format;
}

export function strictParam(ctx: Context): boolean {
  return booleanParam(queryParam(ctx, 'strict'), 'strict');
}

/** Problems one answer lists; the rest are counted in `more`, so an answer stays small whatever the request (CONTRACT §7). */
export const LISTED_PROBLEMS = 100;

export function invalidRequest(error: RenderError): HttpProblem {
  const count = error.problems.length;
  if (count <= LISTED_PROBLEMS) return new HttpProblem(422, 'invalid-values', error.title, `${count} problem${count === 1 ? '' : 's'} with the request; see errors`, { errors: error.problems });
  const more = count - LISTED_PROBLEMS;
  return new HttpProblem(422, 'invalid-values', error.title, `${count} problems with the request; errors lists the first ${LISTED_PROBLEMS}, and more counts the other ${more}`, {
    errors: error.problems.slice(0, LISTED_PROBLEMS),
    more,
  });
}
