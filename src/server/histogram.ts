/**
 * A Prometheus histogram with labels, kept in plain arrays: an observation is a bucket search and
 * three additions on the cells its caller holds, with no label hashing and no object per call, which
 * prom-client's Histogram.observe costs. prom-client still formats it: a registry reads
 * `get()` as it reads its own histograms (registerMetric), and WORKERS sums it the same way.
 */
import type { MetricObjectWithValues, MetricValueWithName } from 'prom-client';

/** The counts of one label set; `buckets[i]` counts observations in bucket i alone, the last one +Inf. */
export interface HistogramCells {
  readonly labels: Record<string, string>;
  readonly buckets: Float64Array;
  sum: number;
  count: number;
}

export class LabelledHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly cells = new Map<string, HistogramCells>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly upperBounds: readonly number[],
  ) {}

  /** The cells of the label set named `key`, if any observation made them. */
  cellsAt(key: string): HistogramCells | undefined {
    return this.cells.get(key);
  }

  /** Makes the cells of the label set named `key`: a caller looks them up first, so that no labels are built per observation. */
  addCells(key: string, labels: Record<string, string>): HistogramCells {
    const cells = { labels, buckets: new Float64Array(this.upperBounds.length + 1), sum: 0, count: 0 };
    this.cells.set(key, cells);
    return cells;
  }

  observe(cells: HistogramCells, value: number): void {
    const bounds = this.upperBounds;
    let bucket = 0;
    while (bucket < bounds.length && value > bounds[bucket]!) bucket++;
    cells.buckets[bucket]!++;
    cells.sum += value;
    cells.count++;
  }

  /** What prom-client's Histogram#get answers: cumulative buckets, then sum and count, per label set. */
  async get(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    const values: MetricValueWithName<string>[] = [];
    for (const cells of this.cells.values()) {
      let cumulative = 0;
      this.upperBounds.forEach((bound, index) => {
        cumulative += cells.buckets[index]!;
        values.push({ labels: { le: bound, ...cells.labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...cells.labels }, value: cells.count, metricName: `${this.name}_bucket` });
      values.push({ labels: { ...cells.labels }, value: cells.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...cells.labels }, value: cells.count, metricName: `${this.name}_count` });
    }
    const metric = { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
    return metric as unknown as MetricObjectWithValues<MetricValueWithName<string>>;
  }

  /**
   * The observations per label set as a Prometheus counter (`name`): a request count is a duration
   * histogram's count, so it is read from the same cells rather than kept twice.
   */
  countsAs(name: string, help: string) {
    return {
      name,
      help,
      type: 'counter',
      aggregator: 'sum',
      get: async () => {
        const values = [...this.cells.values()].map((cells) => ({ labels: { ...cells.labels }, value: cells.count }));
        return { name, help, type: 'counter', values, aggregator: 'sum' } as unknown as MetricObjectWithValues<MetricValueWithName<string>>;
      },
      reset: () => {},
    };
  }

  /** Zeroes the counts in place: callers keep the cells they were given. */
  reset(): void {
    for (const cells of this.cells.values()) {
      cells.buckets.fill(0);
      cells.sum = 0;
      cells.count = 0;
    }
  }
}
