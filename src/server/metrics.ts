/**
 * Prometheus metrics, in a registry of the app's own so that several apps can live in one process.
 * Request counts are kept in a plain map and handed to prom-client when /metrics is scraped: a
 * labelled counter per request would cost the hot path more than the rest of the bookkeeping.
 */
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { logLinesDropped } from './log-sink.js';

export interface Metrics {
  registry: Registry;
  /** The text /metrics answers: this registry's, or with WORKERS the whole server's, from the primary. */
  scrape(): Promise<string>;
  countRequest(method: string, route: string, status: number): void;
  /** Records one render's duration in seconds. */
  observeRender(collection: string, seconds: number): void;
}

/** Log lines this process dropped, in `registry`: every worker's and the primary's, summed with WORKERS. */
export function countLogDrops(registry: Registry): void {
  let droppedSoFar = 0;
  new Counter({
    name: 'facetform_log_lines_dropped_total',
    help: 'Log lines dropped because stdout refused them (a full disk, a closed pipe) or was too slow and the log buffer was full.',
    registers: [registry],
    collect() {
      // The count is the process's, kept by the log sink; the counter takes what came since the last scrape.
      const dropped = logLinesDropped();
      this.inc(dropped - droppedSoFar);
      droppedSoFar = dropped;
    },
  });
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const pending = new Map<string, number>();
  const renderDuration = new Histogram({
    name: 'facetform_render_duration_seconds',
    help: 'Time to validate and render one exec request, by collection.',
    labelNames: ['collection'],
    buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05],
    registers: [registry],
  });
  const renderChildren = new Map<string, ReturnType<typeof renderDuration.labels>>();
  new Counter({
    name: 'facetform_http_requests_total',
    help: 'HTTP requests by method, route and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
    collect() {
      for (const [key, count] of pending) {
        const [method, route, status] = key.split('\u0000') as [string, string, string];
        this.inc({ method, route, status }, count);
      }
      pending.clear();
    },
  });
  countLogDrops(registry);
  return {
    registry,
    scrape: () => registry.metrics(),
    countRequest(method, route, status) {
      const key = `${method}\u0000${route}\u0000${status}`;
      pending.set(key, (pending.get(key) ?? 0) + 1);
    },
    observeRender(collection, seconds) {
      // A labelled child per collection, kept: observing on it skips label hashing.
      let child = renderChildren.get(collection);
      if (child === undefined) renderChildren.set(collection, (child = renderDuration.labels(collection)));
      child.observe(seconds);
    },
  };
}
