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
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 250,
      connectTimeout: 1000,
      retryStrategy: (times) => Math.min(times * 100, 1000),
      keyPrefix: 'facetform:rate:',
    });
    this.client.defineCommand('facetformTake', { numberOfKeys: 1, lua: TAKE });
  }

  get ready(): boolean {
    return this.client.status === 'ready';
  }

  async take(key: string): Promise<Decision> {
    const take = (this.client as unknown as { facetformTake: TakeCommand }).facetformTake.bind(this.client);
    const [allowed, tokens] = await take(key, this.rate.limit, this.rate.periodMs);
    return decide(this.rate, Number(tokens), allowed === 1);
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}
