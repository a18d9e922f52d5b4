/**
 * The rate limiter the server uses: local buckets, or Redis buckets shared by every replica when
 * REDIS_URL is set. A request waits for Redis at most REDIS_TIMEOUT_MS; when Redis is out of reach,
 * slow or hung, the breaker (breaker.ts) opens and this process's own buckets decide at once, without
 * waiting for it. The outage is logged once, and so is the return.
 */
import type { Logger } from 'pino';
import type { RateLimit } from '../config.js';
import { Breaker, type BreakerState } from './breaker.js';
import type { RedisBuckets } from './redis-buckets.js';
import { type Decision, LocalBuckets } from './token-bucket.js';

export interface SharedLimits {
  url: string;
  /** The most a request waits for Redis's answer. */
  timeoutMs: number;
}

export class RateLimiter {
  private readonly local: LocalBuckets;
  private redis: RedisBuckets | undefined;
  /** Resolves once the Redis client exists (it is loaded only when REDIS_URL is set). */
  private readonly redisLoading: Promise<void> | undefined;
  private readonly breaker: Breaker;
  private closing = false;

  constructor(
    readonly rate: RateLimit,
    private readonly logger: Logger,
    private readonly shared?: SharedLimits,
  ) {
    this.local = new LocalBuckets(rate);
    this.breaker = new Breaker({
      opened: (reason) =>
        logger.warn(
          { rateLimit: rate.text, reason, breaker: 'open' },
          'rate limits: Redis is out of reach; each process limits on its own until it is back',
        ),
      closed: () => logger.info({ breaker: 'closed' }, 'rate limits: Redis is back; limits are shared again'),
    });
    if (shared !== undefined) {
      // Until the client is there, and whenever Redis is not ready, the local buckets answer.
      this.redisLoading = import('./redis-buckets.js').then(({ RedisBuckets }) => {
        const redis = (this.redis = new RedisBuckets(shared.url, rate));
        // ioredis reports every failed reconnect; the breaker turns them into one line per outage.
        redis.client.on('error', (error: Error) => this.breaker.lost(error.message));
        redis.client.on('close', () => {
          if (!this.closing) this.breaker.lost('the connection closed');
        });
        redis.client.on('ready', () => {
          // A first connection is news; a connection made again ends an outage, which the breaker says.
          if (this.breaker.state === 'closed') logger.info('rate limits: shared through Redis');
          this.breaker.connected();
        });
      });
    }
  }

  /** The breaker's state; undefined without REDIS_URL. */
  get breakerState(): BreakerState | undefined {
    return this.shared === undefined ? undefined : this.breaker.state;
  }

  /** This process's decision at once; a promise only while Redis decides (or is probed). */
  take(key: string): Decision | Promise<Decision> {
    if (this.redis !== undefined && this.redis.ready && this.breaker.allow()) return this.takeShared(this.redis, key);
    return this.local.take(key);
  }

  private async takeShared(redis: RedisBuckets, key: string): Promise<Decision> {
    try {
      const decision = await redis.take(key, this.shared!.timeoutMs);
      this.breaker.succeeded();
      return decision;
    } catch (error) {
      this.breaker.failed((error as Error).message);
      return this.local.take(key);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.redisLoading;
    await this.redis?.close();
  }
}
