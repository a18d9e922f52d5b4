/**
 * Server configuration, from the environment only. Every setting is declared once, with its
 * default, the values it takes and what it means (settings/); this module reads them into the
 * shape the server uses, and checks what one setting alone cannot (one against another). A bad
 * value stops the start with a message naming the setting.
 */
import type { RegistryPlace } from '../oci/reference.js';
import { closestName, didYouMean } from '../util/did-you-mean.js';
import { SETTING } from './settings/all.js';
import type { LogLevel, OpenRoute, RateLimit } from './settings/serving.js';
import { ConfigError, type Setting, valueOf } from './settings/setting.js';

export { SETTING } from './settings/all.js';
export { LOG_LEVELS, type LogLevel, OPENABLE_ROUTES, type OpenRoute, type RateLimit } from './settings/serving.js';
export { ConfigError } from './settings/setting.js';

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
  /** Milliseconds the checks of one batch may take. */
  maxCheckMs: number;
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

/** The value of each setting in `env`, as its declaration reads it. */
const reader =
  (env: NodeJS.ProcessEnv) =>
  <T>(setting: Setting<T>): T =>
    valueOf(setting, env[setting.name]);

/** A setting's value when its variable is unset. */
export const defaultOf = <T>(setting: Setting<T>): T => valueOf(setting, undefined);

export const parseRateLimit = (text: string): RateLimit => valueOf(SETTING.RATE_LIMIT, text);

/** The request limits of the environment; `readLimits({})` gives the defaults. */
export function readLimits(env: NodeJS.ProcessEnv): RequestLimits {
  const read = reader(env);
  const limits = {
    maxValuesEntries: read(SETTING.MAX_VALUES_ENTRIES),
    maxStringLength: read(SETTING.MAX_STRING_LENGTH),
    maxItems: read(SETTING.MAX_ITEMS),
    maxValuesNodes: read(SETTING.MAX_VALUES_NODES),
    maxResources: read(SETTING.MAX_RESOURCES),
    maxCheckMs: read(SETTING.MAX_CHECK_MS),
    maxAnswerBytes: read(SETTING.MAX_ANSWER_BYTES),
    maxInflightBytes: read(SETTING.MAX_INFLIGHT_BYTES),
  };
  // One answer must fit in what one key may hold (half the budget), or it could never be sent.
  if (limits.maxAnswerBytes > limits.maxInflightBytes / 2)
    throw new ConfigError(
      SETTING.MAX_ANSWER_BYTES.name,
      `${limits.maxAnswerBytes} is more than half of ${SETTING.MAX_INFLIGHT_BYTES.name} (${limits.maxInflightBytes}), which is all one key may hold`,
    );
  return limits;
}

/** Every setting the server reads from the environment. */
export const SETTINGS: readonly string[] = Object.values(SETTING)
  .map((setting) => setting.name)
  .sort();

/** BUNDLES_FROM and the settings that go with it, checked. */
function bundlesFrom(env: NodeJS.ProcessEnv): BundlesFrom | undefined {
  const read = reader(env);
  const pollMs = read(SETTING.BUNDLES_POLL_SECONDS) * 1000;
  const place = read(SETTING.BUNDLES_FROM);
  if (place === undefined) {
    const orphan = [SETTING.BUNDLES_FROM_INSECURE, SETTING.BUNDLES_FROM_REPOSITORIES, SETTING.TRUST_KEY_FILE].find(
      (setting) => env[setting.name] !== undefined,
    );
    if (orphan !== undefined) throw new ConfigError(orphan.name, `only has a meaning with ${SETTING.BUNDLES_FROM.name}=oci://HOST/PATH`);
    return undefined;
  }
  const trustKeyFile = read(SETTING.TRUST_KEY_FILE);
  const insecure = read(SETTING.BUNDLES_FROM_INSECURE);
  const repositories = read(SETTING.BUNDLES_FROM_REPOSITORIES);
  return { place, insecure, pollMs, trustKeyFile, repositories };
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
  const read = reader(env);
  const warnings = misspeltSettings(env);
  // Read in this order, so that of several bad settings the same one is named first as before.
  const host = read(SETTING.HOST);
  const logLevel = read(SETTING.LOG_LEVEL);
  const bundlesDir = read(SETTING.BUNDLES_DIR);
  const apiKeys = read(SETTING.API_KEYS);
  const apiKeysFile = read(SETTING.API_KEYS_FILE);
  const redisUrl = read(SETTING.REDIS_URL);
  const headersMs = read(SETTING.HEADERS_TIMEOUT_MS);
  const requestMs = read(SETTING.REQUEST_TIMEOUT_MS);
  if (headersMs > requestMs)
    throw new ConfigError(SETTING.HEADERS_TIMEOUT_MS.name, `${headersMs} is longer than ${SETTING.REQUEST_TIMEOUT_MS.name} (${requestMs})`);
  const workers = read(SETTING.WORKERS);
  return {
    workers,
    rateLimit: read(SETTING.RATE_LIMIT),
    redisUrl,
    redisTimeoutMs: read(SETTING.REDIS_TIMEOUT_MS),
    limits: readLimits(env),
    timeouts: {
      headersMs,
      requestMs,
      keepAliveMs: read(SETTING.KEEP_ALIVE_TIMEOUT_MS),
      stallMs: read(SETTING.STALL_TIMEOUT_MS),
    },
    port: read(SETTING.PORT),
    host,
    bundlesDir,
    apiKeys,
    apiKeysFile,
    openRoutes: read(SETTING.OPEN_ROUTES),
    logLevel,
    shutdownTimeoutMs: read(SETTING.SHUTDOWN_TIMEOUT_MS),
    bundlesFrom: bundlesFrom(env),
    warnings,
  };
}
