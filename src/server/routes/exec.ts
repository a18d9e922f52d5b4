/** POST …/collections/<name>/exec: validate the input values and render one manifest. */
import type Router from '@koa/router';
import { execute } from '../../exec/execute.js';
import { formatManifest, FORMATS, isFormat, MEDIA_TYPES } from '../../manifest/format.js';
import { RenderError } from '../../render/render-error.js';
import { UNKNOWN_MEMBER_LIMIT } from '../../schema/unknown-members.js';
import { jsonBody } from '../middleware/json-body.js';
import { requestLimits } from '../middleware/request-limits.js';
import { HttpProblem } from '../problem.js';
import type { ServerState } from '../state.js';
import { findCollection, queryParam, setBundleHeaders } from './lookup.js';

export const COLLECTION_PATH = '/apis/repos/:vendor/:repository/:apiVersion/resources/collections/:collection';
export const EXEC_PATH = `${COLLECTION_PATH}/exec`;

/** A Warning header value (RFC 9111 §5.5 form, as the Kubernetes API server sends), printable ASCII only. */
export function warningHeader(text: string): string {
  const quoted = text.replace(/[\\"]/g, (c) => '\\' + c).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `299 - "${quoted}"`;
}

const CONTENT_TYPES = { json: `${MEDIA_TYPES.json}; charset=utf-8`, yaml: MEDIA_TYPES.yaml } as const;

/** Warning headers per answer, and characters per pointer in one: headers must stay small. */
const MAX_WARNINGS = 20;
const MAX_POINTER_LENGTH = 200;

export function unknownFieldWarnings(pointers: string[]): string[] {
  const shown = pointers.slice(0, MAX_WARNINGS).map((pointer) => {
    const text = pointer.length > MAX_POINTER_LENGTH ? `${pointer.slice(0, MAX_POINTER_LENGTH)}…` : pointer;
    return warningHeader(`unknown field "${text}"`);
  });
  const more = pointers.length - shown.length;
  if (more > 0) shown.push(warningHeader(`${more}${pointers.length >= UNKNOWN_MEMBER_LIMIT ? ' or more' : ''} more unknown fields`));
  return shown;
}

function booleanParam(value: string | undefined, name: string): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true' || value === '') return true;
  throw new HttpProblem(400, 'bad-request', 'Bad request', `query parameter ${name} must be true or false, not "${value}"`);
}

export function execRoutes(router: Router, state: ServerState): void {
  router.post(EXEC_PATH, jsonBody(), requestLimits(state.limits), async (ctx) => {
    const found = findCollection(state, ctx);
    const format = queryParam(ctx, 'format') ?? 'json';
    if (!isFormat(format)) throw new HttpProblem(400, 'bad-request', 'Bad request', `format "${format}" is not supported; use one of ${FORMATS.join(', ')}`, { allowed: FORMATS });
    const strict = booleanParam(queryParam(ctx, 'strict'), 'strict');

    const started = process.hrtime.bigint();
    let result;
    try {
      result = execute(found, ctx.state.body, { strict });
    } catch (error) {
      if (!(error instanceof RenderError)) throw error;
      const count = error.problems.length;
      throw new HttpProblem(422, 'invalid-values', error.title, `${count} problem${count === 1 ? '' : 's'} with the request; see errors`, { errors: error.problems });
    } finally {
      state.metrics.observeRender(found.collection.name, Number(process.hrtime.bigint() - started) / 1e9);
    }
    setBundleHeaders(ctx, found.bundle);
    if (result.unknownMembers.length > 0) ctx.set('Warning', unknownFieldWarnings(result.unknownMembers));
    // The full Content-Type, so that Koa need not look the media type up for every answer.
    ctx.set('Content-Type', CONTENT_TYPES[format]);
    ctx.body = formatManifest(result.manifest, format);
  });
}
