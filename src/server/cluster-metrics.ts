/**
 * One /metrics for the whole server when WORKERS=n: the worker that takes a scrape asks the
 * primary, which gathers every worker's registry and sums them with prom-client's aggregator. The
 * primary keeps each worker's last counts, so a worker that dies takes with it only what it counted
 * since the last snapshot (a scrape, or every few seconds), never its history: totals never go down.
 */
import cluster from 'node:cluster';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue, type Registry } from 'prom-client';

type Snapshot = MetricObjectWithValues<MetricValue<string>>[];

interface SnapshotRequest {
  type: 'facetform:metrics-request';
  id: number;
}
interface SnapshotAnswer {
  type: 'facetform:metrics-snapshot';
  id: number;
  metrics: Snapshot;
}
interface ScrapeRequest {
  type: 'facetform:scrape';
  id: number;
}
interface ScrapeAnswer {
  type: 'facetform:scrape-result';
  id: number;
  text?: string;
  error?: string;
}

/** How long the primary waits for workers' counts; a worker waits for the primary longer, so a slow worker costs its counts, not the scrape. */
const SNAPSHOT_TIMEOUT_MS = 1000;
const SCRAPE_TIMEOUT_MS = 5000;
/** How often the primary takes each worker's counts, so that a crash loses at most this much. */
const SNAPSHOT_EVERY_MS = 5000;

/** Counts that outlive the process that made them; gauges (memory, open handles) do not. */
const KEPT_TYPES = new Set(['counter', 'histogram', 'summary']);

/** In a worker: answers the primary's requests for this worker's counts. */
export function shareWorkerMetrics(registry: () => Promise<Registry>): void {
  process.on('message', (message: SnapshotRequest) => {
    if (message?.type !== 'facetform:metrics-request') return;
    void registry()
      .then((made) => made.getMetricsAsJSON())
      .then((metrics) => process.send?.({ type: 'facetform:metrics-snapshot', id: message.id, metrics } satisfies SnapshotAnswer));
  });
}

let scrapes = 0;
/** In a worker: the whole server's metrics text, from the primary. */
export function scrapeFromPrimary(): Promise<string> {
  const id = scrapes++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(undefined, 'the primary process did not answer in time'), SCRAPE_TIMEOUT_MS);
    const listen = (message: ScrapeAnswer) => {
      if (message?.type === 'facetform:scrape-result' && message.id === id) finish(message.text, message.error);
    };
    function finish(text: string | undefined, error: string | undefined) {
      clearTimeout(timer);
      process.off('message', listen);
      if (text === undefined) reject(new Error(error ?? 'no metrics'));
      else resolve(text);
    }
    process.on('message', listen);
    process.send?.({ type: 'facetform:scrape', id } satisfies ScrapeRequest);
  });
}

/** In the primary: the workers' counts, live and retired, and the primary's own registry. */
export class ClusterMetrics {
  private readonly live = new Map<number, Snapshot>();
  private retired: Snapshot = [];
  private retiring = Promise.resolve();
  private requests = 0;
  private readonly pending = new Map<number, { waiting: Set<number>; done(): void }>();

  /** `serving`: ids of the workers that listen; one still starting has nothing to count and may be too busy to answer. */
  constructor(
    private readonly own: Registry,
    private readonly serving: ReadonlySet<number>,
  ) {
    cluster.on('message', (worker, message: SnapshotAnswer | ScrapeRequest) => {
      if (message?.type === 'facetform:metrics-snapshot') this.received(worker.id, message);
      if (message?.type === 'facetform:scrape') {
        this.text().then(
          (text) => worker.isConnected() && worker.send({ type: 'facetform:scrape-result', id: message.id, text } satisfies ScrapeAnswer),
          (error: Error) =>
            worker.isConnected() &&
            worker.send({ type: 'facetform:scrape-result', id: message.id, error: error.message } satisfies ScrapeAnswer),
        );
      }
    });
    setInterval(() => void this.snapshot(), SNAPSHOT_EVERY_MS).unref();
  }

  /** Asks every serving worker for its counts; resolves when all answered or the wait is over. */
  snapshot(): Promise<void> {
    const id = this.requests++;
    const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker?.isConnected() && this.serving.has(worker.id));
    if (workers.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, SNAPSHOT_TIMEOUT_MS);
      const waiting = new Set(workers.map((worker) => worker!.id));
      const pending = this.pending;
      pending.set(id, { waiting, done });
      function done() {
        clearTimeout(timer);
        pending.delete(id);
        resolve();
      }
      for (const worker of workers) worker!.send({ type: 'facetform:metrics-request', id } satisfies SnapshotRequest);
    });
  }

  private received(workerId: number, answer: SnapshotAnswer): void {
    if (cluster.workers?.[workerId] === undefined) return; // late news from a worker already retired
    this.live.set(workerId, answer.metrics);
    const request = this.pending.get(answer.id);
    if (request === undefined) return;
    request.waiting.delete(workerId);
    if (request.waiting.size === 0) request.done();
  }

  /** A worker exited: its last counts join the retired ones (one at a time, so none is lost). */
  retire(workerId: number): Promise<void> {
    const last = this.live.get(workerId);
    this.live.delete(workerId);
    if (last === undefined) return this.retiring;
    // prom-client declares a numeric enum but puts the type's name in JSON.
    const kept = last.filter((metric) => KEPT_TYPES.has(String(metric.type)));
    this.retiring = this.retiring.then(async () => {
      this.retired = await AggregatorRegistry.aggregate([this.retired, kept]).getMetricsAsJSON();
    });
    return this.retiring;
  }

  /** The whole server in Prometheus text: every worker summed (memory, CPU, requests), retired counts included. */
  async text(): Promise<string> {
    await Promise.all([this.snapshot(), this.retiring]);
    return AggregatorRegistry.aggregate([...this.live.values(), this.retired, await this.own.getMetricsAsJSON()]).metrics();
  }
}
