/**
 * The rate limiter the server uses: local buckets, or Redis buckets shared by every replica when
 * REDIS_URL is set. When Redis is out of reach, requests are still limited, by this process's own
 * buckets; the outage is logged once, and so is the return.
 */
import type { Logger } from 'pino';
import type { RateLimit } from '../config.js';
import type { RedisBuckets } from './redis-buckets.js';
import { type Decision, LocalBuckets } from './token-bucket.js';

export class RateLimiter {
  private readonly local: LocalBuckets;
  private redis: RedisBuckets | undefined;
  /** Resolves once the Redis client exists (it is loaded only when REDIS_URL is set). */
  private readonly redisLoading: Promise<void> | undefined;
  private redisDown = false;

  constructor(
    readonly rate: RateLimit,
    private readonly logger: Logger,
    redisUrl?: string,
  ) {
    this.local = new LocalBuckets(rate);
    if (redisUrl !== undefined) {
      // Until the client is there, and whenever Redis is not ready, the local buckets answer.
      this.redisLoading = import('./redis-buckets.js').then(({ RedisBuckets }) => {
        this.redis = new RedisBuckets(redisUrl, rate);
        // ioredis reports every failed reconnect; only the changes of state are worth a line.
        this.redis.client.on('error', () => this.markDown());
        this.redis.client.on('ready', () => this.markUp());
      });
    }
  }

  get shared(): boolean {
    return this.redis?.ready === true;
  }

  /** This process's decision at once; a promise only while Redis is ready and decides. */
  take(key: string): Decision | Promise<Decision> {
    if (this.redis !== undefined && this.redis.ready) return this.takeShared(this.redis, key);
    return this.local.take(key);
  }

  private async takeShared(redis: RedisBuckets, key: string): Promise<Decision> {
    try {
      return await redis.take(key);
    } catch {
      this.markDown();
      return this.local.take(key);
    }
  }

  async close(): Promise<void> {
    await this.redisLoading;
    await this.redis?.close();
  }

  private markDown(): void {
    if (this.redisDown) return;
    this.redisDown = true;
    this.logger.warn({ rateLimit: this.rate.text }, 'rate limits: Redis is out of reach; each process limits on its own until it is back');
  }

  private markUp(): void {
    if (!this.redisDown) {
      this.logger.info('rate limits: shared through Redis');
      return;
    }
    this.redisDown = false;
    this.logger.info('rate limits: Redis is back; limits are shared again');
  }
}
