/**
 * Prometheus metrics, in a registry of the app's own so that several apps can live in one process.
 * Request counts and durations are kept in plain arrays (histogram.ts) and handed to prom-client
 * when /metrics is scraped: its labelled metrics hash the labels on every observation, which cost
 * the hot path more than the rest of the bookkeeping. prom-client itself is loaded with
 * the registry, on first use (metrics-registry.ts).
 */
import type { Registry } from 'prom-client';
import { LabelledHistogram } from './histogram.js';
import type { BreakerState } from './rate-limit/breaker.js';
import type { RegistryStatus } from './registry-status.js';

export interface Metrics {
  /** This process's registry, made on first use. */
  registry(): Promise<Registry>;
  /** The text /metrics answers: this registry's, or with WORKERS the whole server's, from the primary. */
  scrape(): Promise<string>;
  /** Counts one answered HTTP request and records how long it took, in seconds. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** Records one render's duration in seconds. */
  observeRender(collection: string, seconds: number): void;
  /** Shows the registry this process follows (BUNDLES_FROM) in its metrics; with WORKERS only the primary does. */
  followRegistry(status: () => RegistryStatus): void;
  /** Shows the state of the breaker in front of the Redis that shares rate limits (REDIS_URL). */
  followRateLimiter(breaker: () => BreakerState | undefined): void;
}

export function createMetrics(): Metrics {
  let registryStatus: () => RegistryStatus | undefined = () => undefined;
  let breakerState: () => BreakerState | undefined = () => undefined;
  const renderDuration = new LabelledHistogram(
    'facetform_render_duration_seconds',
    'Time to validate and render one exec request, by collection.',
    [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05],
  );
  // The latency a caller sees, from the start of the request pipeline to the answer handed to Node, by route
  // (the pattern, never the path) and status; the buckets reach the slowest an answer may be.
  const requestDuration = new LabelledHistogram(
    'facetform_http_request_duration_seconds',
    'Time from receiving an HTTP request to handing its answer to Node, by method, route and status.',
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  );
  let made: Promise<Registry> | undefined;
  const registry = () =>
    (made ??= import('./metrics-registry.js').then(({ metricsRegistry }) =>
      metricsRegistry(renderDuration, requestDuration, registryStatus, breakerState),
    ));
  return {
    registry,
    scrape: async () => (await registry()).metrics(),
    observeRequest(method, route, status, seconds) {
      const key = `${method}\u0000${route}\u0000${status}`;
      const cells = requestDuration.cellsAt(key) ?? requestDuration.addCells(key, { method, route, status: String(status) });
      requestDuration.observe(cells, seconds);
    },
    followRegistry(status) {
      registryStatus = status;
    },
    followRateLimiter(breaker) {
      breakerState = breaker;
    },
    observeRender(collection, seconds) {
      const cells = renderDuration.cellsAt(collection) ?? renderDuration.addCells(collection, { collection });
      renderDuration.observe(cells, seconds);
    },
  };
}
