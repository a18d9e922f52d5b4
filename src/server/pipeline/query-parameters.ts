/**
 * The query parameters a route takes: any other is a 400 naming it, the ones the route takes, and
 * the one it most likely meant. A misspelt `?fromat=yaml` must not quietly answer JSON.
 */
import type { Context, Middleware } from 'koa';
import { closestName, didYouMean } from '../../util/did-you-mean.js';
import { cut } from '../../util/text.js';
import { HttpProblem } from '../problem.js';

/** Characters of an unknown name quoted back: a URL may be 16 KiB long. */
const MAX_NAME_LENGTH = 100;

/** Throws the 400 for a query parameter the route does not take. */
export function checkQueryParameters(ctx: Context, known: readonly string[]): void {
  // Most requests have no query at all: nothing to parse.
  if (ctx.querystring === '') return;
  for (const unknown of Object.keys(ctx.query)) {
    if (!known.includes(unknown)) {
      const takes = known.length > 0 ? `this route takes ${known.join(', ')}` : 'this route takes none';
      const name = cut(unknown, MAX_NAME_LENGTH);
      throw new HttpProblem('bad-request', `unknown query parameter "${name}"; ${takes}${didYouMean(closestName(unknown, known))}`, {
        parameter: name,
        known,
      });
    }
  }
}

export function queryParameters(known: readonly string[]): Middleware {
  return async (ctx, next) => {
    checkQueryParameters(ctx, known);
    await next();
  };
}
