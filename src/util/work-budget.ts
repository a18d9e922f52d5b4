/**
 * The time one request's checks may take, measured on a monotonic clock. Every check is linear in
 * what a request brings, but a batch multiplies one values entry by its resources; the API server
 * bounds a CEL rule by its cost for the same reason. A request past its budget is stopped between
 * two resources, so the event loop is held at most the budget and one resource.
 */
export class WorkBudget {
  private readonly startedAt: number;

  constructor(
    /** Milliseconds; Infinity checks nothing. */
    readonly maxMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.startedAt = now();
  }

  /** Milliseconds since the request's checks began. */
  get elapsedMs(): number {
    return this.now() - this.startedAt;
  }

  get exhausted(): boolean {
    return this.maxMs !== Infinity && this.elapsedMs > this.maxMs;
  }
}
