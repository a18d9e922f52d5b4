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
  /** Counts one answered HTTP request and records how long it took, in seconds. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
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
  const renderDuration = new Histogram({
    name: 'facetform_render_duration_seconds',
    help: 'Time to validate and render one exec request, by collection.',
    labelNames: ['collection'],
    buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05],
    registers: [registry],
  });
  const renderChildren = new Map<string, ReturnType<typeof renderDuration.labels>>();
  // The latency a caller sees, from the first middleware to the answer handed to Node, by route
  // (the pattern, never the path) and status; the buckets reach the slowest an answer may be.
  const requestDuration = new Histogram({
    name: 'facetform_http_request_duration_seconds',
    help: 'Time from receiving an HTTP request to handing its answer to Node, by method, route and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const requestChildren = new Map<string, { count: number; duration: ReturnType<typeof requestDuration.labels> }>();
  new Counter({
    name: 'facetform_http_requests_total',
    help: 'HTTP requests by method, route and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
    collect() {
      for (const [key, child] of requestChildren) {
        if (child.count === 0) continue;
        const [method, route, status] = key.split('\u0000') as [string, string, string];
        this.inc({ method, route, status }, child.count);
        child.count = 0;
      }
    },
  });
  countLogDrops(registry);
  return {
    registry,
    scrape: () => registry.metrics(),
    observeRequest(method, route, status, seconds) {
      const key = `${method}\u0000${route}\u0000${status}`;
      let child = requestChildren.get(key);
      if (child === undefined)
        requestChildren.set(key, (child = { count: 0, duration: requestDuration.labels(method, route, String(status)) }));
      child.count++;
      child.duration.observe(seconds);
    },
    observeRender(collection, seconds) {
      // A labelled child per collection, kept: observing on it skips label hashing.
      let child = renderChildren.get(collection);
      if (child === undefined) renderChildren.set(collection, (child = renderDuration.labels(collection)));
      child.observe(seconds);
    },
  };
}
