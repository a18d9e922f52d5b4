/**
 * The server of `facetform dev`: the app `serve` runs, serving the preview's registry with the
 * preview's marks and events (server/preview.ts), logging as `serve` does but quieter.
 */
import { pino } from 'pino';
import type { BundleRegistry } from '../bundle/registry.js';
import type { ApiKeys } from '../server/api-keys.js';
import type { ServerConfig } from '../server/config.js';
import { createLogSink } from '../server/log-sink.js';
import { EVENTS_PATH, type Preview } from '../server/preview.js';
import { createState, startServer, type RunningServer } from '../server/server.js';

export interface PreviewServer {
  running: RunningServer;
  /** Waits for the requests in flight (at most the configured shutdown time), then for the log. */
  stop(): Promise<void>;
}

/** Listens on the configured host and port; rejects with the listen error, as startServer does. */
export async function startPreviewServer(
  registry: BundleRegistry,
  keys: ApiKeys,
  preview: Preview,
  config: ServerConfig,
  env: NodeJS.ProcessEnv,
): Promise<PreviewServer> {
  const logSink = createLogSink();
  // Request lines would drown the lint messages: LOG_LEVEL=info shows them (JSON on stdout, as serve).
  const logger = pino(
    { level: env.LOG_LEVEL === undefined ? 'warn' : config.logLevel, base: { service: 'facetform', mode: 'dev', pid: process.pid } },
    logSink,
  );
  const state = createState(registry, keys, logger, {
    rateLimit: config.rateLimit,
    redisUrl: config.redisUrl,
    redisTimeoutMs: config.redisTimeoutMs,
    limits: config.limits,
    openRoutes: config.openRoutes,
  });
  state.preview = preview;
  // The console's EventSource cannot send X-APIKEY; the events say names and counts, nothing else.
  state.openPaths = new Set([...state.openPaths, EVENTS_PATH]);
  const running = await startServer(state, config.port, config.host, config.timeouts);
  return {
    running,
    async stop() {
      await running.close(config.shutdownTimeoutMs);
      await logSink.close(1000);
    },
  };
}
