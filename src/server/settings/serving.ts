/** The settings of listening, keys, logs, rate limits and processes (setting.ts says what a declaration is). */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { OPENABLE_ROUTES } from '../routes/route-table.js';
import { entries, nonEmpty, type Setting, SettingValueError, wholeNumber } from './setting.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Routes that OPEN_ROUTES may open, by name: a path, or a prefix when it ends in "/" (every editor schema). */
export { OPENABLE_ROUTES } from '../routes/route-table.js';
export type OpenRoute = string;

export interface RateLimit {
  limit: number;
  periodMs: number;
  /** As configured, e.g. "600/min". */
  text: string;
}

const PERIODS: Record<string, number> = {
  s: 1000,
  sec: 1000,
  second: 1000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
};

/** A file or folder that must exist when set; set but empty is unset. */
function existing(kind: 'file' | 'folder'): Pick<Setting<string | undefined>, 'parse'> {
  return {
    parse: (text) => {
      const name = nonEmpty(text);
      if (name !== undefined && !existsSync(name)) throw new SettingValueError(`${kind} ${name} does not exist`);
      return name;
    },
  };
}

export const SERVING_SETTINGS = {
  PORT: {
    name: 'PORT',
    default: '8790',
    description: 'TCP port (`0` picks a free one). Not 8080: kubectl without a kubeconfig talks to localhost:8080',
    ...wholeNumber(0, 65535),
  },
  HOST: {
    name: 'HOST',
    default: '0.0.0.0',
    values: 'an address',
    description: 'address to listen on',
    parse: (text = '') => {
      if (text.trim() === '') throw new SettingValueError('is empty; use e.g. 0.0.0.0 or 127.0.0.1');
      return text;
    },
  },
  BUNDLES_DIR: {
    name: 'BUNDLES_DIR',
    shownDefault: '`dist/` of the project',
    values: 'a folder',
    description: 'bundles to serve. Unset: `dist/` is rebuilt from `repos/` at start when missing or stale. Set: served as they are',
    ...existing('folder'),
  },
  API_KEYS: {
    name: 'API_KEYS',
    values: 'keys of 8 characters or more, comma-separated',
    description:
      'keys a client sends as X-APIKEY, hashed in memory at start; logged as `API_KEYS#1`, `API_KEYS#2`, … (a name no key file entry can have)',
    parse: (text) => {
      const keys = text === undefined ? undefined : entries(text);
      if (keys?.some((key) => key.length < 8)) throw new SettingValueError('every comma-separated key must have at least 8 characters');
      return keys;
    },
  },
  API_KEYS_FILE: {
    name: 'API_KEYS_FILE',
    values: 'a file of `NAME sha256:HEX` lines',
    description:
      'keys by name (`#` comments allowed), at least one (a file without a key is a configuration error at start, and a refused reload on SIGHUP); a regular file of at most 1 MiB (some 13,000 keys), so a larger one, a FIFO or a device is refused unread in the same way; make entries with `npx facetform keys new NAME`. Both may be set. With neither, the server makes a key at start and prints it once',
    ...existing('file'),
  },
  LOG_LEVEL: {
    name: 'LOG_LEVEL',
    default: 'info',
    values: LOG_LEVELS.join(', '),
    description: 'the least level of the log lines written',
    parse: (text = '') => {
      if (!(LOG_LEVELS as readonly string[]).includes(text))
        throw new SettingValueError(`"${text}" is not one of ${LOG_LEVELS.join(', ')}`);
      return text as LogLevel;
    },
  },
  SHUTDOWN_TIMEOUT_MS: {
    name: 'SHUTDOWN_TIMEOUT_MS',
    default: '10000',
    description: 'how long in-flight requests get to finish after SIGTERM or SIGINT',
    ...wholeNumber(0, 600_000),
  },
  RATE_LIMIT: {
    name: 'RATE_LIMIT',
    default: '600/min',
    values: '`N/sec`, `N/min` or `N/hour`, N from 1',
    description: 'requests per key: a token bucket of N tokens refilled evenly over the period',
    parse: (text = ''): RateLimit => {
      const match = /^(\d+)\s*\/\s*([a-z]+)$/.exec(text.trim());
      const periodMs = match ? PERIODS[match[2]!] : undefined;
      if (!match || periodMs === undefined || Number(match[1]) < 1 || Number(match[1]) > 1_000_000_000)
        throw new SettingValueError(`"${text}" is not of the form N/sec, N/min or N/hour with N from 1, e.g. 600/min`);
      return { limit: Number(match[1]), periodMs, text: text.trim() };
    },
  },
  REDIS_URL: {
    name: 'REDIS_URL',
    values: '`redis://host:port` (or `rediss://`)',
    description:
      'every replica draws on one budget per key. While Redis is out of reach, hung or slow, each process limits on its own (logged once), and shares again when it is back',
    parse: (text) => {
      const url = nonEmpty(text);
      if (url !== undefined && !/^rediss?:\/\//.test(url)) throw new SettingValueError(`"${url}" is not a redis:// or rediss:// URL`);
      return url;
    },
  },
  REDIS_TIMEOUT_MS: {
    name: 'REDIS_TIMEOUT_MS',
    default: '20',
    description:
      "the most a request waits for Redis's rate-limit answer before its own process decides (Envoy's rate-limit filter waits 20 ms too; Redis on the same network answers in well under 1)",
    ...wholeNumber(1, 60_000),
  },
  OPEN_ROUTES: {
    name: 'OPEN_ROUTES',
    values: `${Object.keys(OPENABLE_ROUTES).join(', ')}, comma-separated`,
    description: 'operations routes answered without a key (`schemas`: everything under `/schemas/`, for editors)',
    parse: (text) => {
      const names = entries(text ?? '').filter(Boolean);
      const unknown = names.filter((name) => !Object.hasOwn(OPENABLE_ROUTES, name));
      if (unknown.length > 0)
        throw new SettingValueError(
          `${unknown.map((name) => `"${name}"`).join(', ')} cannot be opened; name ${Object.keys(OPENABLE_ROUTES).join(' or ')}`,
        );
      return names as OpenRoute[];
    },
  },
  WORKERS: {
    name: 'WORKERS',
    default: '1',
    values: 'a number of processes from 1 to 64, or `auto` (one per core)',
    description: 'processes serving the port (node:cluster)',
    parse: (text = '') => {
      const workers = text === 'auto' ? availableParallelism() : Number(text);
      if (!/^(auto|\d+)$/.test(text) || workers < 1 || workers > 64)
        throw new SettingValueError(`"${text}" is not a number of processes from 1 to 64, or auto`);
      return workers;
    },
  },
} satisfies Record<string, Setting<unknown>>;
