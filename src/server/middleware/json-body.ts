/**
 * The JSON request body of an exec route, with the limits of CONTRACT §7: not application/json 415,
 * over 1 MiB 413, malformed JSON or nesting deeper than 64 levels 400. Nesting is measured on the
 * raw text before parsing, so no deep structure is ever built.
 */
import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import { HttpProblem } from '../problem.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;
export const MAX_NESTING = 64;

/** Whether the text has more than `limit` brackets at all: if not, it cannot nest deeper. Native indexOf is fast. */
function bracketsExceed(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) if (++count > limit) return true;
  }
  return false;
}

/** Whether arrays and objects in JSON text nest deeper than `limit`. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  if (!bracketsExceed(text, limit)) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++; // skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}

export function jsonBody(): Middleware {
  return async (ctx, next) => {
    if (ctx.get('Content-Type') !== 'application/json' && !ctx.is('application/json')) {
      const given = ctx.get('Content-Type') || 'no Content-Type';
      throw new HttpProblem(415, 'unsupported-media-type', 'Unsupported media type', `the body must be application/json, not ${given}`, {}, { Accept: 'application/json' });
    }
    const text = await getRawBody(ctx.req, { limit: BODY_LIMIT_BYTES, length: ctx.get('Content-Length') || undefined, encoding: 'utf8' });
    if (nestsDeeperThan(text, MAX_NESTING)) {
      throw new HttpProblem(400, 'bad-request', 'Bad request', `the JSON body nests deeper than ${MAX_NESTING} levels`);
    }
    try {
      ctx.state.body = JSON.parse(text);
    } catch (error) {
      throw new HttpProblem(400, 'bad-request', 'Malformed JSON', `the body is not valid JSON${where(text, (error as Error).message)}`);
    }
    await next();
  };
}

/** Where JSON.parse stopped, without quoting the body: it may hold secrets. */
function where(text: string, message: string): string {
  if (text.trim() === '') return ': the body is empty';
  const match = /position (\d+)/.exec(message);
  if (!match) return ': it ends before the JSON value is complete';
  const before = text.slice(0, Number(match[1]));
  return ` at line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')}`;
}
