/**
 * Server configuration, from the environment only. Every setting has a documented default; a bad
 * value stops the start with a message naming the setting.
 */
import { existsSync } from 'node:fs';

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
  logLevel: LogLevel;
  /** Milliseconds in-flight requests get to finish after SIGTERM. */
  shutdownTimeoutMs: number;
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
};

function integer(env: NodeJS.ProcessEnv, name: keyof typeof CONFIG_DEFAULTS, min: number, max: number): number {
  const text = env[name] ?? CONFIG_DEFAULTS[name];
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new ConfigError(name, `"${text}" is not a whole number from ${min} to ${max}`);
  return Number(text);
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const host = env.HOST ?? CONFIG_DEFAULTS.HOST;
  if (host.trim() === '') throw new ConfigError('HOST', 'is empty; use e.g. 0.0.0.0 or 127.0.0.1');
  const logLevel = (env.LOG_LEVEL ?? CONFIG_DEFAULTS.LOG_LEVEL) as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `"${logLevel}" is not one of ${LOG_LEVELS.join(', ')}`);
  const bundlesDir = env.BUNDLES_DIR || undefined;
  if (bundlesDir !== undefined && !existsSync(bundlesDir)) throw new ConfigError('BUNDLES_DIR', `folder ${bundlesDir} does not exist`);
  let apiKeys: string[] | undefined;
  if (env.API_KEYS !== undefined) {
    apiKeys = env.API_KEYS.split(',').map((key) => key.trim());
    if (apiKeys.some((key) => key.length < 8)) throw new ConfigError('API_KEYS', 'every comma-separated key must have at least 8 characters');
  }
  const apiKeysFile = env.API_KEYS_FILE || undefined;
  if (apiKeysFile !== undefined && !existsSync(apiKeysFile)) throw new ConfigError('API_KEYS_FILE', `file ${apiKeysFile} does not exist`);
  return {
    port: integer(env, 'PORT', 0, 65535),
    host,
    bundlesDir,
    apiKeys,
    apiKeysFile,
    logLevel,
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 0, 600_000),
  };
}
