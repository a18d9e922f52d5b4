/**
 * Token buckets, one per key name: `limit` tokens, refilled evenly over the period; a request takes
 * one. This process's own buckets, used alone or while Redis is out of reach.
 */
import type { RateLimit } from '../config.js';

export interface Decision {
  allowed: boolean;
  limit: number;
  /** Whole tokens left. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one token is back; 0 when allowed. */
  retryAfterSeconds: number;
}

/** The decision for a bucket that holds `tokens` after this request's take (or failed take). */
export function decide(rate: RateLimit, tokens: number, allowed: boolean): Decision {
  const perMs = rate.limit / rate.periodMs;
  return {
    allowed,
    limit: rate.limit,
    remaining: Math.max(0, Math.floor(tokens)),
    resetSeconds: Math.ceil((rate.limit - tokens) / perMs / 1000),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)),
  };
}

/** Buckets not touched for this long are full again and can be forgotten. */
const SWEEP_EVERY = 10_000;

export class LocalBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private takes = 0;

  constructor(private readonly rate: RateLimit) {}

  take(key: string, now = Date.now()): Decision {
    const perMs = this.rate.limit / this.rate.periodMs;
    let bucket = this.buckets.get(key);
    if (bucket === undefined) this.buckets.set(key, (bucket = { tokens: this.rate.limit, at: now }));
    bucket.tokens = Math.min(this.rate.limit, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    if (++this.takes % SWEEP_EVERY === 0) this.sweep(now);
    return decide(this.rate, bucket.tokens, allowed);
  }

  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) if (now - bucket.at > this.rate.periodMs) this.buckets.delete(key);
  }
}
