/**
 * Token buckets kept in Redis, so that every replica draws on one budget per key. The take is one
 * Lua script, atomic on the Redis server and timed by its clock, so replicas' clocks do not matter.
 */
import { Redis } from 'ioredis';
import type { RateLimit } from '../config.js';
import { decide, type Decision } from './token-bucket.js';

const TAKE = `
local capacity = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) * capacity / period)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], period * 2)
return { allowed, tostring(tokens) }
`;

type TakeCommand = (key: string, capacity: number, period: number) => Promise<[number, string]>;

export class RedisBuckets {
  readonly client: Redis;

  constructor(
    url: string,
    private readonly rate: RateLimit,
  ) {
    this.client = new Redis(url, {
      // Fail at once while Redis is away, so the caller falls back to local limits without waiting.
      // A connected Redis that does not answer is timed by the caller (take), not here.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1000,
      retryStrategy: (times) => Math.min(times * 100, 1000),
      keyPrefix: 'facetform:rate:',
    });
    this.client.defineCommand('facetformTake', { numberOfKeys: 1, lua: TAKE });
  }

  get ready(): boolean {
    return this.client.status === 'ready';
  }

  /** Rejects when Redis has not answered within `timeoutMs`; the command stays queued, and its late answer is dropped. */
  async take(key: string, timeoutMs: number): Promise<Decision> {
    const take = (this.client as unknown as { facetformTake: TakeCommand }).facetformTake.bind(this.client);
    const [allowed, tokens] = await withinTime(take(key, this.rate.limit, this.rate.periodMs), timeoutMs);
    return decide(this.rate, Number(tokens), allowed === 1);
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}

/**
 * `promise`, or an error after `ms`. Timers run before the event loop polls for I/O, so an answer
 * that came while the loop was busy (a long render, a GC pause) would lose to the timer: the
 * time-out waits for one more poll (setImmediate runs after it) before it counts.
 */
function withinTime<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => setImmediate(() => reject(new Error(`no answer within ${ms} ms`))), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error as Error);
      },
    );
  });
}
