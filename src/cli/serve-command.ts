/** `facetform serve`: what `npm start` runs. Configuration comes from the environment only. */
import path from 'node:path';
import { pino } from 'pino';
import { BundleLoadError } from '../bundle/load.js';
import { ApiKeys, KeyFileError, newKey } from '../server/api-keys.js';
import { BuildFailedError, ensureBuilt, loadRegistry, PROJECT_ROOT } from '../server/bundles.js';
import { ConfigError, readConfig, type ServerConfig } from '../server/config.js';
import { reload } from '../server/reload.js';
import { createState, startServer } from '../server/server.js';
import { CliError, type Io, parseCommandArgs } from './io.js';

function loadKeys(config: ServerConfig, io: Io): ApiKeys {
  let keys = new ApiKeys([]);
  try {
    if (config.apiKeysFile !== undefined) keys = keys.add(ApiKeys.fromFile(config.apiKeysFile));
  } catch (error) {
    if (error instanceof KeyFileError) throw new CliError(`API_KEYS_FILE: ${error.message}`);
    throw error;
  }
  if (config.apiKeys !== undefined) keys = keys.add(ApiKeys.fromPlainKeys(config.apiKeys));
  if (config.apiKeys === undefined && config.apiKeysFile === undefined) {
    const key = newKey();
    keys = ApiKeys.fromPlainKeys([key]);
    io.err(
      `No API key is configured, so this run made one. Send it as X-APIKEY:\n\n    ${key}\n\n` +
        'It is printed only now and lasts until the server stops. To choose keys, set API_KEYS=key1,key2, or\n' +
        'API_KEYS_FILE=FILE with lines made by `npx facetform keys new NAME`.\n',
    );
  }
  return keys;
}

export async function runServe(args: string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  parseCommandArgs(args, {});
  let config: ServerConfig;
  try {
    config = readConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(`configuration error: ${error.message}`);
    throw error;
  }
  // A log line per request must not cost a write per request: lines are gathered up to 4 KiB and
  // written at least every 250 ms, and whatever is left is written at shutdown.
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 250 } as never);
  const logger = pino({ level: config.logLevel, base: { service: 'facetform' } }, destination);
  const distDir = config.bundlesDir ?? path.join(PROJECT_ROOT, 'dist');
  let registry;
  try {
    if (config.bundlesDir === undefined) {
      const built = await ensureBuilt(path.join(PROJECT_ROOT, 'repos'), distDir);
      if (built !== undefined) io.err(`${built}\n`);
    }
    registry = loadRegistry(distDir);
  } catch (error) {
    if (error instanceof BuildFailedError || error instanceof BundleLoadError) throw new CliError(error.message, 1);
    throw error;
  }
  const keys = loadKeys(config, io);
  const state = createState(registry, keys, logger, { rateLimit: config.rateLimit, redisUrl: config.redisUrl, limits: config.limits });
  let running;
  try {
    running = await startServer(state, config.port, config.host, config.timeouts);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new CliError(`cannot listen on ${config.host}:${config.port} (${code}); set PORT or HOST to another value`, 1);
    }
    throw error;
  }
  const collections = registry.bundles.reduce((count, loaded) => count + loaded.collections.size, 0);
  logger.info({ url: running.url, bundles: registry.bundles.length, collections }, 'listening');
  io.err(`facetform serving ${registry.bundles.length} bundles (${collections} collections) on ${running.url}\n`);

  process.on('SIGHUP', () => {
    logger.info('SIGHUP: reloading API keys and bundles');
    reload(state, { distDir, apiKeysFile: config.apiKeysFile, plainKeys: config.apiKeys });
  });

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
  await running.close(config.shutdownTimeoutMs);
  logger.info('stopped');
  destination.flushSync();
  return 0;
}
