/**
 * Server configuration, from the environment only. Every setting has a documented default; a bad
 * value stops the start with a message naming the setting.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parsePlace, type RegistryPlace } from '../oci/reference.js';
import { readTrustedKeys } from '../oci/signature.js';
import { closestName, didYouMean } from '../util/did-you-mean.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface ServerConfig {
  port: number;
  host: string;
  /** Folder of bundles; when unset, dist/ of the project, rebuilt from repos/ when stale. */
  bundlesDir: string | undefined;
  /** Comma-separated plain keys. */
  apiKeys: string[] | undefined;
  /** File of `NAME sha256:HEX` lines. */
  apiKeysFile: string | undefined;
  /** Operations routes answered without a key (CONTRACT §7: they follow the key unless opened). */
  openRoutes: OpenRoute[];
  logLevel: LogLevel;
  /** Milliseconds in-flight requests get to finish after SIGTERM. */
  shutdownTimeoutMs: number;
  /** Requests per key: a token bucket of `limit` tokens refilled over `periodMs`. */
  rateLimit: RateLimit;
  /** Shares rate limits between replicas when set. */
  redisUrl: string | undefined;
  /** The most a request waits for Redis's rate-limit answer; past it, and while its breaker is open, local buckets decide. */
  redisTimeoutMs: number;
  limits: RequestLimits;
  timeouts: ServerTimeouts;
  /** Processes serving the same port (node:cluster); 1 serves in this process. */
  workers: number;
  /** A registry whose releases the server follows (BUNDLES_FROM); unset serves the bundles folder alone. */
  bundlesFrom: BundlesFrom | undefined;
  /** What the environment holds that looks like a setting but is not one, to say at start. */
  warnings: string[];
}

export interface BundlesFrom {
  place: RegistryPlace;
  /** Plain HTTP (BUNDLES_FROM_INSECURE=true). */
  insecure: boolean;
  pollMs: number;
  /** PEM public keys; with it, only releases signed by one of them are served. */
  trustKeyFile: string | undefined;
  /** `<repository>/<apiVersion>` to follow; unset follows what the registry's catalog lists under the path. */
  repositories: string[] | undefined;
}

export interface RateLimit {
  limit: number;
  periodMs: number;
  /** As configured, e.g. "600/min". */
  text: string;
}

export interface RequestLimits {
  /** Entries of `values` in one request. */
  maxValuesEntries: number;
  /** Characters of any one string (member names too) in a request body. */
  maxStringLength: number;
  /** Items of any one array, and members of any one object, in a request body. */
  maxItems: number;
  /** JSON values under `values` in one request; in a batch, each resource counts the entry it reads. */
  maxValuesNodes: number;
  /** Resources in one batch request. */
  maxResources: number;
  /** Bytes of one answer. */
  maxAnswerBytes: number;
  /** Bytes of request bodies being read and answers not yet sent, in all, in one process. */
  maxInflightBytes: number;
}

export interface ServerTimeouts {
  /** Time to receive a request's headers. */
  headersMs: number;
  /** Time to receive a whole request. */
  requestMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveMs: number;
  /** How long a connection may stall, no byte arriving or taken, before it is closed. */
  stallMs: number;
}

export class ConfigError extends Error {
  constructor(setting: string, message: string) {
    super(`${setting}: ${message}`);
    this.name = 'ConfigError';
  }
}

export const CONFIG_DEFAULTS = {
  PORT: '8080',
  HOST: '0.0.0.0',
  LOG_LEVEL: 'info',
  SHUTDOWN_TIMEOUT_MS: '10000',
  RATE_LIMIT: '600/min',
  REDIS_TIMEOUT_MS: '20',
  MAX_VALUES_ENTRIES: '100',
  MAX_STRING_LENGTH: '65536',
  MAX_ITEMS: '1000',
  MAX_VALUES_NODES: '25000',
  MAX_RESOURCES: '50',
  MAX_ANSWER_BYTES: String(4 * 1024 * 1024),
  MAX_INFLIGHT_BYTES: String(64 * 1024 * 1024),
  HEADERS_TIMEOUT_MS: '10000',
  REQUEST_TIMEOUT_MS: '30000',
  KEEP_ALIVE_TIMEOUT_MS: '5000',
  STALL_TIMEOUT_MS: '10000',
  WORKERS: '1',
  BUNDLES_POLL_SECONDS: '60',
};

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

export function parseRateLimit(text: string): RateLimit {
  const match = /^(\d+)\s*\/\s*([a-z]+)$/.exec(text.trim());
  const periodMs = match ? PERIODS[match[2]!] : undefined;
  if (!match || periodMs === undefined || Number(match[1]) < 1 || Number(match[1]) > 1_000_000_000) {
    throw new ConfigError('RATE_LIMIT', `"${text}" is not of the form N/sec, N/min or N/hour with N from 1, e.g. 600/min`);
  }
  return { limit: Number(match[1]), periodMs, text: text.trim() };
}

function integer(env: NodeJS.ProcessEnv, name: keyof typeof CONFIG_DEFAULTS, min: number, max: number): number {
  const text = env[name] ?? CONFIG_DEFAULTS[name];
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
    throw new ConfigError(name, `"${text}" is not a whole number from ${min} to ${max}`);
  return Number(text);
}

const MiB = 1024 * 1024;

/** The request limits of the environment; `readLimits({})` gives the defaults. */
export function readLimits(env: NodeJS.ProcessEnv): RequestLimits {
  const limits = {
    maxValuesEntries: integer(env, 'MAX_VALUES_ENTRIES', 1, 100_000),
    maxStringLength: integer(env, 'MAX_STRING_LENGTH', 16, 1024 * 1024),
    maxItems: integer(env, 'MAX_ITEMS', 16, 100_000),
    maxValuesNodes: integer(env, 'MAX_VALUES_NODES', 100, 10_000_000),
    maxResources: integer(env, 'MAX_RESOURCES', 1, 10_000),
    maxAnswerBytes: integer(env, 'MAX_ANSWER_BYTES', 64 * 1024, 1024 * MiB),
    maxInflightBytes: integer(env, 'MAX_INFLIGHT_BYTES', MiB, 64 * 1024 * MiB),
  };
  // One answer must fit in what one key may hold (half the budget), or it could never be sent.
  if (limits.maxAnswerBytes > limits.maxInflightBytes / 2)
    throw new ConfigError(
      'MAX_ANSWER_BYTES',
      `${limits.maxAnswerBytes} is more than half of MAX_INFLIGHT_BYTES (${limits.maxInflightBytes}), which is all one key may hold`,
    );
  return limits;
}

/** Routes that OPEN_ROUTES may open, by name: a path, or a prefix when it ends in "/" (every editor schema). */
export const OPENABLE_ROUTES = { metrics: '/metrics', openapi: '/openapi.json', schemas: '/schemas/' } as const;
export type OpenRoute = keyof typeof OPENABLE_ROUTES;

function openRoutes(env: NodeJS.ProcessEnv): OpenRoute[] {
  const names = (env.OPEN_ROUTES ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !Object.hasOwn(OPENABLE_ROUTES, name));
  if (unknown.length > 0)
    throw new ConfigError(
      'OPEN_ROUTES',
      `${unknown.map((name) => `"${name}"`).join(', ')} cannot be opened; name ${Object.keys(OPENABLE_ROUTES).join(' or ')}`,
    );
  return names as OpenRoute[];
}

/** Every setting the server reads from the environment. */
export const SETTINGS: readonly string[] = [
  ...Object.keys(CONFIG_DEFAULTS),
  'BUNDLES_DIR',
  'API_KEYS',
  'API_KEYS_FILE',
  'REDIS_URL',
  'OPEN_ROUTES',
  'BUNDLES_FROM',
  'BUNDLES_FROM_INSECURE',
  'BUNDLES_FROM_REPOSITORIES',
  'TRUST_KEY_FILE',
  'REGISTRY_USERNAME',
  'REGISTRY_PASSWORD',
].sort();

/** BUNDLES_FROM and the settings that go with it, checked. */
function bundlesFrom(env: NodeJS.ProcessEnv): BundlesFrom | undefined {
  const pollMs = integer(env, 'BUNDLES_POLL_SECONDS', 1, 86_400) * 1000;
  const text = env.BUNDLES_FROM || undefined;
  if (text === undefined) {
    const orphan = ['BUNDLES_FROM_INSECURE', 'BUNDLES_FROM_REPOSITORIES', 'TRUST_KEY_FILE'].find((name) => env[name] !== undefined);
    if (orphan !== undefined) throw new ConfigError(orphan, 'only has a meaning with BUNDLES_FROM=oci://HOST/PATH');
    return undefined;
  }
  let place: RegistryPlace;
  try {
    place = parsePlace(text);
  } catch (error) {
    throw new ConfigError('BUNDLES_FROM', (error as Error).message);
  }
  const trustKeyFile = env.TRUST_KEY_FILE;
  // Set but empty (a template left unfilled) must not turn signature checks off.
  if (trustKeyFile === '')
    throw new ConfigError('TRUST_KEY_FILE', 'is empty: name the PEM file of the public keys that sign releases, or unset it');
  if (trustKeyFile !== undefined) {
    try {
      readTrustedKeys(trustKeyFile);
    } catch (error) {
      throw new ConfigError('TRUST_KEY_FILE', (error as Error).message);
    }
  }
  const insecureText = env.BUNDLES_FROM_INSECURE ?? 'false';
  if (insecureText !== 'true' && insecureText !== 'false')
    throw new ConfigError('BUNDLES_FROM_INSECURE', `"${insecureText}" is not true or false`);
  const repositories = env.BUNDLES_FROM_REPOSITORIES?.split(',').map((entry) => entry.trim());
  const bad = repositories?.find((entry) => !/^[a-z0-9][a-z0-9._-]*\/v\d+[a-z0-9]*$/.test(entry));
  if (bad !== undefined)
    throw new ConfigError('BUNDLES_FROM_REPOSITORIES', `"${bad}" is not <repository>/<apiVersion>, e.g. service-resources/v1`);
  return { place, insecure: insecureText === 'true', pollMs, trustKeyFile, repositories };
}

/** Names close to a setting that users set for another reason: API_KEY is the README's and the console's name for the key a client sends. */
const CLIENT_VARIABLES = new Set(['API_KEY']);

/**
 * Variables that look like a misspelt setting (`APIKEYS` for API_KEYS): close to a setting that is
 * not set, which the start refuses, saying which was meant. The environment holds many unrelated
 * variables, so only names a few edits from a setting count; a client's own variable is a warning.
 */
function misspeltSettings(env: NodeJS.ProcessEnv): string[] {
  const warnings: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (SETTINGS.includes(name)) continue;
    const setting = closestName(name, SETTINGS);
    if (setting === undefined || env[setting] !== undefined) continue;
    const meant = didYouMean(setting);
    if (!CLIENT_VARIABLES.has(name)) throw new ConfigError(name, `is not a setting${meant} Set ${setting}, or unset ${name}`);
    warnings.push(`${name} is not a setting, so the server ignores it${meant}`);
  }
  return warnings;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const warnings = misspeltSettings(env);
  const host = env.HOST ?? CONFIG_DEFAULTS.HOST;
  if (host.trim() === '') throw new ConfigError('HOST', 'is empty; use e.g. 0.0.0.0 or 127.0.0.1');
  const logLevel = (env.LOG_LEVEL ?? CONFIG_DEFAULTS.LOG_LEVEL) as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `"${logLevel}" is not one of ${LOG_LEVELS.join(', ')}`);
  const bundlesDir = env.BUNDLES_DIR || undefined;
  if (bundlesDir !== undefined && !existsSync(bundlesDir)) throw new ConfigError('BUNDLES_DIR', `folder ${bundlesDir} does not exist`);
  let apiKeys: string[] | undefined;
  if (env.API_KEYS !== undefined) {
    apiKeys = env.API_KEYS.split(',').map((key) => key.trim());
    if (apiKeys.some((key) => key.length < 8))
      throw new ConfigError('API_KEYS', 'every comma-separated key must have at least 8 characters');
  }
  const apiKeysFile = env.API_KEYS_FILE || undefined;
  if (apiKeysFile !== undefined && !existsSync(apiKeysFile)) throw new ConfigError('API_KEYS_FILE', `file ${apiKeysFile} does not exist`);
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl))
    throw new ConfigError('REDIS_URL', `"${redisUrl}" is not a redis:// or rediss:// URL`);
  const headersMs = integer(env, 'HEADERS_TIMEOUT_MS', 100, 600_000);
  const requestMs = integer(env, 'REQUEST_TIMEOUT_MS', 100, 600_000);
  if (headersMs > requestMs) throw new ConfigError('HEADERS_TIMEOUT_MS', `${headersMs} is longer than REQUEST_TIMEOUT_MS (${requestMs})`);
  const workersText = env.WORKERS ?? CONFIG_DEFAULTS.WORKERS;
  const workers = workersText === 'auto' ? availableParallelism() : Number(workersText);
  if (!/^(auto|\d+)$/.test(workersText) || workers < 1 || workers > 64)
    throw new ConfigError('WORKERS', `"${workersText}" is not a number of processes from 1 to 64, or auto`);
  return {
    workers,
    rateLimit: parseRateLimit(env.RATE_LIMIT ?? CONFIG_DEFAULTS.RATE_LIMIT),
    redisUrl,
    redisTimeoutMs: integer(env, 'REDIS_TIMEOUT_MS', 1, 60_000),
    limits: readLimits(env),
    timeouts: {
      headersMs,
      requestMs,
      keepAliveMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 100, 600_000),
      stallMs: integer(env, 'STALL_TIMEOUT_MS', 100, 600_000),
    },
    port: integer(env, 'PORT', 0, 65535),
    host,
    bundlesDir,
    apiKeys,
    apiKeysFile,
    openRoutes: openRoutes(env),
    logLevel,
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 0, 600_000),
    bundlesFrom: bundlesFrom(env),
    warnings,
  };
}
