/** What the server's request pipeline and routes share: the loaded bundles, keys, logger and metrics. */
import type { Logger } from 'pino';
import type { BundleRegistry } from '../bundle/registry.js';
import type { ApiKeys } from './api-keys.js';
import type { WorkerCapacity } from './cluster-worker.js';
import type { RequestLimits } from './config.js';
import type { InflightBytes } from './inflight-bytes.js';
import type { Metrics } from './metrics.js';
import type { Preview } from './preview.js';
import type { RegistryStatus } from './registry-status.js';
import type { RateLimiter } from './rate-limit/rate-limiter.js';
import type { SchemaFiles } from './schema-files.js';

export interface ServerState {
  /** Replaced as a whole when bundles are reloaded; a request keeps the one it started with. */
  registry: BundleRegistry;
  keys: ApiKeys;
  logger: Logger;
  rateLimiter: RateLimiter;
  limits: RequestLimits;
  /** Bytes of request bodies being read and answers not yet sent (MAX_INFLIGHT_BYTES). */
  inflight: InflightBytes;
  /** Paths of operations routes opened by OPEN_ROUTES: answered without a key. */
  openPaths: ReadonlySet<string>;
  metrics: Metrics;
  /** With WORKERS: how many of the wanted workers serve, as the primary last said. */
  workers?: WorkerCapacity;
  /** The registry followed (BUNDLES_FROM): whether it answers, what was pulled and refused. */
  registryStatus?: RegistryStatus;
  /** False until bundles are loaded and again once shutdown begins. */
  ready: boolean;
  /** Set by `facetform dev`: the answers are an unreleased preview of the working tree, marked as such. */
  preview?: Preview;
  /** The OpenAPI document of the loaded bundles, made on first request and kept until a reload. */
  openapi(): string;
  /** The editor schemas of the loaded bundles by path under /schemas/, each made on first request and kept until a reload. */
  schemas(): SchemaFiles;
}
