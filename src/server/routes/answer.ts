/** What the exec routes share: query parameters, the Warning headers, 422 answers, and the manifests answered within the limits. */
import type { Context } from 'koa';
import {
  AnswerTooLarge,
  bytesText,
  FORMATS,
  objectTooLargeDetail,
  formatManifest,
  formatManifestList,
  isFormat,
  KUBERNETES_OBJECT_LIMIT_BYTES,
  MEDIA_TYPES,
  ObjectTooLarge,
  type Format,
} from '../../manifest/format.js';
import { firstInBodyOrder, LISTED_PROBLEMS, type Problem, type RenderError, shownPointer } from '../../request/problems.js';
import { UNKNOWN_MEMBER_LIMIT } from '../../schema/unknown-members.js';
import { cut } from '../../util/text.js';
import { warningHeader } from '../../util/warning-header.js';
import { acceptedFormat, markFormatChosen } from '../accept.js';
import { HttpProblem } from '../problem.js';
import { queryParam } from './lookup.js';

export const CONTENT_TYPES = { json: `${MEDIA_TYPES.json}; charset=utf-8`, yaml: MEDIA_TYPES.yaml } as const;

/** Warning headers per answer, and characters per pointer in one: headers must stay small. */
const MAX_WARNINGS = 20;
const MAX_POINTER_LENGTH = 200;

/** Warning headers from texts: at most MAX_WARNINGS, each cut to a readable length, then a count of the rest. */
export function warningHeaders(texts: string[], rest: (count: number) => string): string[] {
  const shown = texts.slice(0, MAX_WARNINGS).map((text) => warningHeader(text));
  if (texts.length > shown.length) shown.push(warningHeader(rest(texts.length - shown.length)));
  return shown;
}

export function unknownFieldWarnings(pointers: string[]): string[] {
  return warningHeaders(
    pointers.map((pointer) => `unknown field "${cut(pointer, MAX_POINTER_LENGTH)}"`),
    (count) => `${count}${pointers.length >= UNKNOWN_MEMBER_LIMIT ? ' or more' : ''} more unknown fields`,
  );
}

export function unusedValuesWarnings(ids: string[]): string[] {
  return warningHeaders(
    ids.map((id) => `values entry "${cut(id, MAX_POINTER_LENGTH)}" is not read by any resource`),
    (count) => `${count} more values entries are not read by any resource`,
  );
}

function booleanParam(value: string | undefined, name: string): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true' || value === '') return true;
  throw new HttpProblem('bad-request', `query parameter ${name} must be true or false, not "${value}"`);
}

/** The answer's format: the `format` query parameter, or else what `Accept` asks for. */
export function formatParam(ctx: Context): Format {
  const format = queryParam(ctx, 'format');
  markFormatChosen(ctx);
  if (format === undefined) return acceptedFormat(ctx);
  if (!isFormat(format))
    throw new HttpProblem('bad-request', `format "${format}" is not supported; use one of ${FORMATS.join(', ')}`, {
      allowed: FORMATS,
    });
  return format;
}

export function strictParam(ctx: Context): boolean {
  return booleanParam(queryParam(ctx, 'strict'), 'strict');
}

/**
 * Characters of a detail in a 422: a detail may quote a facet or values id 64 Ki characters long.
 * Pointers are cut where problems are made (shownPointer); a member name may be as long, and a
 * pointer repeats the names above it, so a hundred of them could otherwise make megabytes.
 */
const MAX_DETAIL_LENGTH = 1000;

const shown = (problem: Problem): Problem => ({ pointer: shownPointer(problem.pointer), detail: cut(problem.detail, MAX_DETAIL_LENGTH) });

export function invalidRequest(error: RenderError): HttpProblem {
  const count = error.problems.length + error.more;
  const errors = firstInBodyOrder(error.problems, LISTED_PROBLEMS).map(shown);
  const more = count - errors.length;
  if (more === 0)
    return new HttpProblem(
      'invalid-values',
      `${count} problem${count === 1 ? '' : 's'} with the request; see errors`,
      {
        errors,
      },
      {},
      error.title,
    );
  return new HttpProblem(
    'invalid-values',
    `${count} problems with the request; errors lists the first ${errors.length}, and more counts the other ${more}`,
    { errors, more },
    {},
    error.title,
  );
}

/** A 422 for an answer that would pass MAX_ANSWER_BYTES: where it passed, and what to do. */
export function answerTooLarge(error: AnswerTooLarge, pointer: string, advice: string): HttpProblem {
  const detail = `the answer would pass ${bytesText(error.limit)}, the most one answer may hold (MAX_ANSWER_BYTES)`;
  const at =
    error.before > 0
      ? `takes the answer past ${bytesText(error.limit)}; what comes before it takes ${bytesText(error.before)}`
      : `takes more than ${bytesText(error.limit)} on its own`;
  return new HttpProblem('answer-too-large', `${detail}; ${advice}`, {
    limit: error.limit,
    errors: [{ pointer, detail: at }],
  });
}

/**
 * The manifests as the answer, in bytes, within MAX_ANSWER_BYTES and the object size Kubernetes
 * accepts; `pointerOf` names the request member behind manifest N in a 422.
 */
export function answerManifests(
  ctx: Context,
  manifests: unknown[],
  format: Format,
  options: { list: boolean; maxBytes: number; pointerOf: (index: number) => string; advice: string },
): void {
  const limits = { maxBytes: options.maxBytes, maxObjectBytes: KUBERNETES_OBJECT_LIMIT_BYTES };
  let text: string;
  try {
    text = options.list ? formatManifestList(manifests, format, limits) : formatManifest(manifests[0], format, { limits });
  } catch (error) {
    if (error instanceof AnswerTooLarge) throw answerTooLarge(error, options.pointerOf(error.index), options.advice);
    if (error instanceof ObjectTooLarge) {
      const detail = objectTooLargeDetail(manifests[error.index], error.bytes, error.limit);
      throw new HttpProblem(
        'invalid-values',
        `1 problem with the request; see errors`,
        {
          errors: [{ pointer: options.pointerOf(error.index), detail }],
        },
        {},
        'Object too large for Kubernetes',
      );
    }
    throw error;
  }
  // The full Content-Type, so that Koa need not look the media type up for every answer.
  ctx.set('Content-Type', CONTENT_TYPES[format]);
  // Bytes, not text: an answer waiting for a slow client holds one copy, outside the JavaScript heap.
  ctx.body = Buffer.from(text);
}
