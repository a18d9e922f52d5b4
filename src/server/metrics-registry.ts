/**
 * The prom-client registry of one process's metrics, made when it is first asked for (a scrape, or
 * the primary's request for a worker's counts): loading prom-client was an eighth of start-up
 * (issue 20), and a server that is never scraped need not pay it. Process metrics (memory, CPU, GC,
 * event loop) are collected from then on; the request metrics were counted all along (metrics.ts).
 */
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import type { LabelledHistogram } from './histogram.js';
import { logLinesDropped } from './log-sink.js';

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

export function metricsRegistry(renderDuration: LabelledHistogram, requestDuration: LabelledHistogram): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registry.registerMetric(renderDuration as never);
  registry.registerMetric(requestDuration as never);
  registry.registerMetric(requestDuration.countsAs('facetform_http_requests_total', 'HTTP requests by method, route and status.') as never);
  countLogDrops(registry);
  return registry;
}
