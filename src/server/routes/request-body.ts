/**
 * What exec and batch check before their work, in this order: the query parameters (400), the JSON
 * body (415, 413, 400) and the limits on what it holds (422). Plain calls in one route handler, not
 * three middleware: each middleware is a promise and a closure more per request.
 */
import type { Context } from 'koa';
import { readJsonBody } from '../pipeline/json-body.js';
import { checkQueryParameters } from '../pipeline/query-parameters.js';
import { checkRequestLimits } from '../pipeline/request-limits.js';
import type { ServerState } from '../state.js';

export async function readRequestBody(ctx: Context, state: ServerState, query: readonly string[]): Promise<unknown> {
  checkQueryParameters(ctx, query);
  const body = await readJsonBody(ctx, state.inflight);
  checkRequestLimits(body, state.limits);
  return body;
}
