/**
 * The prom-client registry of one process's metrics, made when it is first asked for (a scrape, or
 * the primary's request for a worker's counts): loading prom-client was an eighth of start-up
 *, and a server that is never scraped need not pay it. Process metrics (memory, CPU, GC,
 * event loop) are collected from then on; the request metrics were counted all along (metrics.ts).
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { LabelledHistogram } from './histogram.js';
import { logLinesDropped } from './log-sink.js';
import { BREAKER_STATES, type BreakerState } from './rate-limit/breaker.js';
import type { RegistryStatus } from './registry-status.js';

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

export function metricsRegistry(
  renderDuration: LabelledHistogram,
  requestDuration: LabelledHistogram,
  registryStatus: () => RegistryStatus | undefined,
  breakerState: () => BreakerState | undefined,
): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registry.registerMetric(renderDuration as never);
  registry.registerMetric(requestDuration as never);
  registry.registerMetric(requestDuration.countsAs('facetform_http_requests_total', 'HTTP requests by method, route and status.') as never);
  countLogDrops(registry);
  registerRegistryMetrics(registry, registryStatus);
  registerBreakerMetric(registry, breakerState);
  return registry;
}

/** The state of the breaker in front of the Redis that shares rate limits, read at each scrape; none without REDIS_URL. */
function registerBreakerMetric(registry: Registry, breaker: () => BreakerState | undefined): void {
  if (breaker() === undefined) return;
  new Gauge({
    name: 'facetform_rate_limit_breaker_state',
    help: 'The circuit breaker in front of the Redis that shares rate limits: 1 for its state (closed: Redis decides; open: this process decides alone; half-open: one request probes Redis), 0 for the others. With WORKERS, the number of workers in each state.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const now = breaker();
      for (const state of BREAKER_STATES) this.set({ state }, state === now ? 1 : 0);
    },
  });
}

/** The metrics of the registry followed (BUNDLES_FROM) in `registry`, read from `status()` at each scrape; none when none is followed. */
export function registerRegistryMetrics(registry: Registry, status: () => RegistryStatus | undefined): void {
  if (status() === undefined) return;
  new Gauge({
    name: 'facetform_registry_up',
    help: 'Whether the last poll of the registry named by BUNDLES_FROM succeeded (1) or failed (0).',
    registers: [registry],
    collect() {
      const reachable = status()?.reachable;
      if (reachable !== undefined) this.set(reachable ? 1 : 0);
    },
  });
  let counted = { ok: 0, failed: 0, pulled: 0 };
  const polls = new Counter({
    name: 'facetform_registry_polls_total',
    help: 'Polls of the registry named by BUNDLES_FROM, by outcome.',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      const now = status();
      if (now === undefined) return;
      // The follower keeps totals; the counters take what came since the last scrape.
      polls.inc({ outcome: 'ok' }, now.polls.ok - counted.ok);
      polls.inc({ outcome: 'failed' }, now.polls.failed - counted.failed);
      pulled.inc(now.pulled - counted.pulled);
      counted = { ok: now.polls.ok, failed: now.polls.failed, pulled: now.pulled };
    },
  });
  const pulled = new Counter({
    name: 'facetform_registry_releases_pulled_total',
    help: 'Releases pulled from the registry named by BUNDLES_FROM and served.',
    registers: [registry],
  });
  new Gauge({
    name: 'facetform_registry_releases_refused',
    help: 'Releases the registry holds that are not served: unsigned, wrongly signed or not matching their digests.',
    registers: [registry],
    collect() {
      const now = status();
      if (now !== undefined) this.set(Object.keys(now.refused).length);
    },
  });
  new Gauge({
    name: 'facetform_registry_last_success_timestamp_seconds',
    help: 'When a poll of the registry named by BUNDLES_FROM last succeeded, in seconds since the epoch.',
    registers: [registry],
    collect() {
      const last = status()?.lastSuccess;
      if (last !== undefined) this.set(Date.parse(last) / 1000);
    },
  });
}
