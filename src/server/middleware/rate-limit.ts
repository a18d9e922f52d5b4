/**
 * Requests per key (CONTRACT §7): every answer to a keyed request says the budget in the `RateLimit`
 * and `RateLimit-Policy` fields of draft-ietf-httpapi-ratelimit-headers-10 (one policy, "key": q
 * requests per w seconds; r left, t seconds until the bucket is full); past it, 429 with
 * Retry-After. Runs after the key check, so the bucket is the key's name.
 */
import type { Middleware } from 'koa';
import { HttpProblem } from '../problem.js';
import type { ServerState } from '../state.js';

export const RATE_LIMIT_POLICY_NAME = 'key';

export function rateLimit(state: ServerState): Middleware {
  // The policy is the same for every answer: written once.
  const { rate } = state.rateLimiter;
  const policy = `"${RATE_LIMIT_POLICY_NAME}";q=${rate.limit};w=${Math.round(rate.periodMs / 1000)}`;
  return async (ctx, next) => {
    const key = ctx.state.keyName as string | undefined;
    if (key === undefined) return next();
    const decision = await state.rateLimiter.take(key);
    ctx.set('RateLimit-Policy', policy);
    ctx.set('RateLimit', `"${RATE_LIMIT_POLICY_NAME}";r=${decision.remaining};t=${decision.resetSeconds}`);
    if (!decision.allowed) {
      throw new HttpProblem(
        429,
        'too-many-requests',
        'Too many requests',
        `this key may send ${rate.text}; retry after ${decision.retryAfterSeconds} s`,
        {},
        { 'Retry-After': String(decision.retryAfterSeconds) },
      );
    }
    return next();
  };
}
