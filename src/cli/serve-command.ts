/**
 * `facetform serve`: what `npm start` runs. Configuration comes from the environment only. With
 * WORKERS=n this process becomes the primary of n workers; otherwise it serves itself.
 */
import path from 'node:path';
import { type Logger, pino } from 'pino';
import { BundleLoadError } from '../bundle/bundle-file.js';
import type { BundleRegistry } from '../bundle/registry.js';
import { ApiKeys, KeyFileError, newKey } from '../server/api-keys.js';
import { BuildFailedError, ensureBuilt, loadRegistry } from '../server/bundles.js';
import { PROJECT_ROOT } from '../util/project-root.js';
import {
  announceListening,
  isWorker,
  KEY_FROM_PRIMARY_ENV,
  onCapacity,
  onRegistryStatus,
  receiveKey,
  reportStartFailure,
} from '../server/cluster-worker.js';
import { ConfigError, readConfig, type ServerConfig } from '../server/config.js';
import { createLogSink } from '../server/log-sink.js';
import { reload, reloadBundles } from '../server/reload.js';
import { placeText } from '../oci/reference.js';
import { newRegistryStatus, type RegistryStatus } from '../server/registry-status.js';
import { createState, startServer, type RunningServer } from '../server/server.js';
import { settingsHelp } from '../server/settings/text.js';
import { skipMetaSchemaCheck } from '../schema/input-validator.js';
import { counted } from '../util/text.js';
import { CliError, type Io, parseCommandArgs } from './io.js';

/** What `facetform serve --help` says after its usage line: every setting, its default, values and meaning. */
export const serveHelp = (): string => settingsHelp();

function readConfigOrExplain(env: NodeJS.ProcessEnv): ServerConfig {
  try {
    return readConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(`configuration error: ${error.message}`);
    throw error;
  }
}

/** The bundles to serve: BUNDLES_DIR, or dist/ built from repos/ when it is missing or stale. */
async function prepareBundles(config: ServerConfig, io: Io): Promise<{ distDir: string; registry: BundleRegistry }> {
  const distDir = config.bundlesDir ?? path.join(PROJECT_ROOT, 'dist');
  try {
    if (config.bundlesDir === undefined) {
      const built = await ensureBuilt(path.join(PROJECT_ROOT, 'repos'), distDir);
      if (built !== undefined) io.err(`${built}\n`);
    }
    return { distDir, registry: loadRegistry(distDir, config.bundlesFrom !== undefined) };
  } catch (error) {
    if (error instanceof BuildFailedError || error instanceof BundleLoadError) throw new CliError(error.message, 1);
    throw error;
  }
}

/** With no key configured, a key made for this run (printed by announceKey once the server listens); undefined otherwise. */
function generatedKey(config: ServerConfig): string | undefined {
  if (config.apiKeys !== undefined || config.apiKeysFile !== undefined) return undefined;
  return newKey();
}

/** The key made for this run, printed once, just before the line that says the server listens: a run that cannot listen prints no key it will never take. */
function announceKey(key: string | undefined, io: Io): void {
  if (key === undefined) return;
  io.err(
    `No API key is configured, so this run made one. Send it as X-APIKEY:\n\n    ${key}\n\n` +
      'It is printed only now and lasts until the server stops. To choose keys, set API_KEYS=key1,key2, or\n' +
      'API_KEYS_FILE=FILE with lines made by `npx facetform keys new NAME`.\n',
  );
}

/** The keys the configuration names, and the one made for this run; a key file that cannot be read is a CliError. */
export function loadKeys(config: ServerConfig, extraKey: string | undefined): ApiKeys {
  let keys = new ApiKeys([]);
  try {
    if (config.apiKeysFile !== undefined) keys = keys.add(ApiKeys.fromFile(config.apiKeysFile));
  } catch (error) {
    if (error instanceof KeyFileError) throw new CliError(`API_KEYS_FILE: ${error.message}`);
    throw error;
  }
  const plain = [...(config.apiKeys ?? []), ...(extraKey === undefined ? [] : [extraKey])];
  return plain.length > 0 ? keys.add(ApiKeys.fromPlainKeys(plain)) : keys;
}

/** What the start line says is served: repositories, their releases in all, and the collections callers can name. */
export function describeServed(registry: BundleRegistry): string {
  const repositories = new Set<string>();
  const collections = new Set<string>();
  for (const { bundle } of registry.bundles) {
    const repository = `${bundle.repository.vendor}/${bundle.repository.name}`;
    repositories.add(repository);
    for (const collection of bundle.collections) collections.add(`${repository}/${collection.name}`);
  }
  return (
    `${counted(repositories.size, 'repository', 'repositories')} (${counted(registry.bundles.length, 'release')}, ` +
    `${counted(collections.size, 'collection')})`
  );
}

/** What makes the follower of BUNDLES_FROM, if set; a trust key or credentials that cannot be read stop the start. */
async function followRegistry(config: ServerConfig, distDir: string, logger: Logger) {
  const from = config.bundlesFrom;
  if (from === undefined) return undefined;
  const { RegistryFollower } = await import('../server/registry-follower.js');
  const { credentialsFor } = await import('../oci/credentials.js');
  let credentials;
  try {
    credentials = credentialsFor(from.place.registry, process.env);
  } catch (error) {
    throw new CliError(`configuration error: the login for ${from.place.registry}: ${(error as Error).message}`);
  }
  if (from.trustKeyFile === undefined)
    logger.warn({ registry: placeText(from.place) }, 'BUNDLES_FROM without TRUST_KEY_FILE: releases are served unsigned');
  return (onAdded: () => void, onPolled?: (status: RegistryStatus) => void) =>
    new RegistryFollower({ from, credentials, distDir, logger, onAdded, ...(onPolled === undefined ? {} : { onPolled }) });
}

/** Serves in this process until SIGTERM or SIGINT. */
async function serve(config: ServerConfig, io: Io, distDir: string, registry: BundleRegistry, key: string | undefined): Promise<number> {
  // From here on only schemas of built bundles are compiled (a start-time build has finished).
  skipMetaSchemaCheck();
  // A worker's metrics go through the primary; a server of one process does not load that.
  const workerMetrics = isWorker() ? await import('../server/cluster-metrics.js') : undefined;
  // Batched, bounded, and never blocking nor crashing: a stuck or full stdout costs log lines, not answers.
  const logSink = createLogSink();
  const logger = pino({ level: config.logLevel, base: { service: 'facetform', pid: process.pid } }, logSink);
  const state = createState(registry, loadKeys(config, key), logger, {
    rateLimit: config.rateLimit,
    redisUrl: config.redisUrl,
    redisTimeoutMs: config.redisTimeoutMs,
    limits: config.limits,
    openRoutes: config.openRoutes,
  });
  const follower = isWorker() ? undefined : (await followRegistry(config, distDir, logger))?.(() => reloadBundles(state, distDir, true));
  if (follower !== undefined) {
    state.registryStatus = follower.status;
    state.metrics.followRegistry(() => follower.status);
    // With nothing to serve yet, the first poll comes before listening; otherwise it runs beside serving.
    if (registry.bundles.length === 0) await follower.start();
    else void follower.start();
  } else if (config.bundlesFrom !== undefined) {
    // A worker: the primary follows the registry and sends what it knows after every poll.
    state.registryStatus = newRegistryStatus(placeText(config.bundlesFrom.place), config.bundlesFrom.trustKeyFile !== undefined);
    onRegistryStatus((status) => (state.registryStatus = status));
  }
  let running: RunningServer;
  try {
    running = await startServer(state, config.port, config.host, config.timeouts);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new CliError(`cannot listen on ${config.host}:${config.port} (${code}); set PORT or HOST to another value`, 1);
    }
    throw error;
  }
  // Reloads run one after another: a later SIGHUP's keys must not be replaced by an earlier, slower read.
  let reloading = Promise.resolve();
  process.on('SIGHUP', () => {
    logger.info('SIGHUP: reloading API keys and bundles');
    reloading = reloading.then(async () => {
      try {
        await reload(state, {
          distDir,
          emptyAllowed: config.bundlesFrom !== undefined,
          apiKeysFile: config.apiKeysFile,
          plainKeys: [...(config.apiKeys ?? []), ...(key === undefined ? [] : [key])],
        });
        follower?.reloadTrust();
        void follower?.poll();
      } catch (error) {
        logger.error({ err: error }, 'reload failed; the server goes on with what it had');
      }
    });
  });
  // Signals are handled before anyone is told the server is up: a signal sent on that news must not
  // meet Node's default, which ends the process.
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  logger.info({ url: running.url, bundles: state.registry.bundles.length }, 'listening');
  if (workerMetrics !== undefined) {
    // One /metrics for the whole server, and /readyz that knows how many siblings serve.
    workerMetrics.shareWorkerMetrics(state.metrics.registry);
    state.metrics.scrape = workerMetrics.scrapeFromPrimary;
    onCapacity((capacity) => (state.workers = capacity));
    announceListening(running.url);
  } else {
    announceKey(key, io);
    io.err(`facetform serving ${describeServed(state.registry)} on ${running.url}\n`);
  }
  const signal = await stopped;
  logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
  follower?.stop();
  await running.close(config.shutdownTimeoutMs);
  logger.info('stopped');
  await logSink.close(1000); // what stdout does not take within a second is dropped
  return 0;
}

export async function runServe(args: string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  parseCommandArgs(args, {});
  const config = readConfigOrExplain(env);
  if (!isWorker()) for (const warning of config.warnings) io.err(`facetform serve: warning: ${warning}\n`);
  if (isWorker()) {
    // The primary built and checked the bundles and sends the key it made, if any.
    const key = env[KEY_FROM_PRIMARY_ENV] === '1' ? await receiveKey() : undefined;
    let code: number;
    try {
      let registry: BundleRegistry;
      try {
        registry = loadRegistry(config.bundlesDir!, config.bundlesFrom !== undefined);
      } catch (error) {
        if (error instanceof BundleLoadError) throw new CliError(`worker ${process.pid}: ${error.message}`, 1);
        throw error;
      }
      code = await serve(config, io, config.bundlesDir!, registry, key);
    } catch (error) {
      // The primary says why this worker could not start; a worker that stays silent leaves it guessing.
      await reportStartFailure(error instanceof Error ? error.message : String(error));
      throw error;
    }
    process.disconnect?.(); // the channel to the primary would keep this process alive
    return code;
  }
  const { distDir, registry } = await prepareBundles(config, io);
  const key = generatedKey(config);
  if (config.workers === 1) return serve(config, io, distDir, registry, key);
  loadKeys(config, key); // a key file that cannot be read stops the start here, not in every worker
  // The primary's log goes where the workers' goes, and no more than theirs may a stuck stdout stop it.
  const logSink = createLogSink();
  const logger = pino({ level: config.logLevel, base: { service: 'facetform', pid: process.pid, role: 'primary' } }, logSink);
  const { runPrimary } = await import('../server/cluster-primary.js');
  const follow = await followRegistry(config, distDir, logger);
  const code = await runPrimary({
    workers: config.workers,
    env: { BUNDLES_DIR: distDir },
    key,
    // Following a registry, the first poll may have added releases since the folder was read.
    onListening: (url) => {
      announceKey(key, io);
      io.err(
        `facetform serving ${describeServed(follow === undefined ? registry : loadRegistry(distDir, true))} on ${url} with ${config.workers} workers\n`,
      );
    },
    say: (text) => io.err(text),
    logger,
    ...(follow === undefined ? {} : { follow, firstPollBeforeWorkers: registry.bundles.length === 0 }),
  });
  await logSink.close(1000);
  return code;
}
