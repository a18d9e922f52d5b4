/**
 * Requests per key (CONTRACT §7): every answer to a keyed request says the budget in RateLimit-*
 * headers; past it, 429 with Retry-After. Runs after the key check, so the bucket is the key's name.
 */
import type { Middleware } from 'koa';
import { HttpProblem } from '../problem.js';
import type { ServerState } from '../state.js';

export function rateLimit(state: ServerState): Middleware {
  return async (ctx, next) => {
    const key = ctx.state.keyName as string | undefined;
    if (key === undefined) return next();
    const decision = await state.rateLimiter.take(key);
    ctx.set('RateLimit-Limit', String(decision.limit));
    ctx.set('RateLimit-Remaining', String(decision.remaining));
    ctx.set('RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      throw new HttpProblem(
        429,
        'too-many-requests',
        'Too many requests',
        `this key may send ${state.rateLimiter.rate.text}; retry after ${decision.retryAfterSeconds} s`,
        {},
        { 'Retry-After': String(decision.retryAfterSeconds) },
      );
    }
    return next();
  };
}
