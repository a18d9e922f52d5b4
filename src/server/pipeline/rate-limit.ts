/**
 * Requests per key (CONTRACT §7): every answer to a keyed request says the budget in the `RateLimit`
 * and `RateLimit-Policy` fields of draft-ietf-httpapi-ratelimit-headers-10 (one policy, "key": q
 * requests per w seconds; r left, t seconds until the bucket is full); past it, 429 with
 * Retry-After. Runs after the key check, so the bucket is the key's name.
 */
import type { ServerResponse } from 'node:http';
import { HttpProblem } from '../problem.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import type { Decision } from '../rate-limit/token-bucket.js';

export const RATE_LIMIT_POLICY_NAME = 'key';

/** Takes one request from the key's budget and says so on the answer; throws the 429. */
export type RateLimitStep = (key: string, res: ServerResponse) => void | Promise<void>;

export function rateLimitStep(limiter: RateLimiter): RateLimitStep {
  // The policy is the same for every answer: written once.
  const { rate } = limiter;
  const policy = `"${RATE_LIMIT_POLICY_NAME}";q=${rate.limit};w=${Math.round(rate.periodMs / 1000)}`;
  const answer = (decision: Decision, res: ServerResponse): void => {
    res.setHeader('RateLimit-Policy', policy);
    res.setHeader('RateLimit', `"${RATE_LIMIT_POLICY_NAME}";r=${decision.remaining};t=${decision.resetSeconds}`);
    if (!decision.allowed) {
      throw new HttpProblem(
        'too-many-requests',
        `this key may send ${rate.text}; retry after ${decision.retryAfterSeconds} s`,
        {},
        { 'Retry-After': String(decision.retryAfterSeconds) },
      );
    }
  };
  return (key, res) => {
    // This process's buckets decide at once; only Redis makes the request wait.
    const decision = limiter.take(key);
    return decision instanceof Promise ? decision.then((shared) => answer(shared, res)) : answer(decision, res);
  };
}
