/**
 * The query parameters a route takes: any other is a 400 naming it, the ones the route takes, and
 * the one it most likely meant. A misspelt `?fromat=yaml` must not quietly answer JSON.
 */
import type { Middleware } from 'koa';
import { closestName, didYouMean } from '../../util/did-you-mean.js';
import { cut } from '../../util/text.js';
import { HttpProblem } from '../problem.js';

/** Characters of an unknown name quoted back: a URL may be 16 KiB long. */
const MAX_NAME_LENGTH = 100;

export function queryParameters(known: readonly string[]): Middleware {
  const takes = known.length > 0 ? `this route takes ${known.join(', ')}` : 'this route takes none';
  return async (ctx, next) => {
    const unknown = Object.keys(ctx.query).find((name) => !known.includes(name));
    if (unknown !== undefined) {
      const name = cut(unknown, MAX_NAME_LENGTH);
      throw new HttpProblem(
        400,
        'bad-request',
        'Bad request',
        `unknown query parameter "${name}"; ${takes}${didYouMean(closestName(unknown, known))}`,
        { parameter: name, known },
      );
    }
    await next();
  };
}
