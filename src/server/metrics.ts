/**
 * Prometheus metrics, in a registry of the app's own so that several apps can live in one process.
 * Request counts and durations are kept in plain arrays (histogram.ts) and handed to prom-client
 * when /metrics is scraped: its labelled metrics hash the labels on every observation, which cost
 * the hot path more than the rest of the bookkeeping (issue 20).
 */
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import { type HistogramCells, LabelledHistogram } from './histogram.js';
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
  const renderDuration = new LabelledHistogram(
    'facetform_render_duration_seconds',
    'Time to validate and render one exec request, by collection.',
    [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05],
    registry,
  );
  const renderCells = new Map<string, HistogramCells>();
  // The latency a caller sees, from the start of the request pipeline to the answer handed to Node, by route
  // (the pattern, never the path) and status; the buckets reach the slowest an answer may be.
  const requestDuration = new LabelledHistogram(
    'facetform_http_request_duration_seconds',
    'Time from receiving an HTTP request to handing its answer to Node, by method, route and status.',
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registry,
  );
  /** Per method, route and status: the duration cells, and how many of their requests the counter has taken. */
  const requests = new Map<string, { cells: HistogramCells; counted: number }>();
  new Counter({
    name: 'facetform_http_requests_total',
    help: 'HTTP requests by method, route and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
    collect() {
      for (const entry of requests.values()) {
        if (entry.cells.count === entry.counted) continue;
        this.inc(entry.cells.labels, entry.cells.count - entry.counted);
        entry.counted = entry.cells.count;
      }
    },
  });
  countLogDrops(registry);
  return {
    registry,
    scrape: () => registry.metrics(),
    observeRequest(method, route, status, seconds) {
      const key = `${method}\u0000${route}\u0000${status}`;
      let entry = requests.get(key);
      if (entry === undefined) {
        const labels = { method, route, status: String(status) };
        requests.set(key, (entry = { cells: requestDuration.cellsFor(key, labels), counted: 0 }));
      }
      requestDuration.observe(entry.cells, seconds);
    },
    observeRender(collection, seconds) {
      let cells = renderCells.get(collection);
      if (cells === undefined) renderCells.set(collection, (cells = renderDuration.cellsFor(collection, { collection })));
      renderDuration.observe(cells, seconds);
    },
  };
}
