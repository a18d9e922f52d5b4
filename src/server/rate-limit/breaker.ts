/**
 * The circuit breaker in front of Redis. Closed: Redis decides. After FAILURES_TO_OPEN time-outs or
 * errors in a row, or a lost connection, it opens: this process's buckets decide, and no request
 * waits for Redis. After OPEN_MS one request is the probe (half-open): its answer in time closes the
 * breaker, its failure opens it again. Only the changes between an outage and its end are reported,
 * so an outage is one line however many requests and probes it fails.
 */

export const BREAKER_STATES = ['closed', 'open', 'half-open'] as const;
export type BreakerState = (typeof BREAKER_STATES)[number];

/** A few, so that one slow answer does not open it, and a hung Redis costs only the requests in flight. */
export const FAILURES_TO_OPEN = 5;
/** How long this process decides alone before it probes Redis again: one probe a second is nothing to Redis. */
export const OPEN_MS = 1000;

export interface BreakerEvents {
  /** An outage began (the breaker opened from closed); `reason` is the first failure's. */
  opened(reason: string): void;
  /** Redis answers again. */
  closed(): void;
}

export class Breaker {
  private current: BreakerState = 'closed';
  private failures = 0;
  private openedAt = 0;

  constructor(
    private readonly events: BreakerEvents,
    private readonly now: () => number = Date.now,
  ) {}

  get state(): BreakerState {
    return this.current;
  }

  /**
   * Whether this request may ask Redis: always while closed; once open, only the first request
   * after OPEN_MS, which turns the breaker half-open until its answer comes (or does not).
   */
  allow(): boolean {
    if (this.current === 'closed') return true;
    if (this.current === 'half-open' || this.now() - this.openedAt < OPEN_MS) return false;
    this.current = 'half-open';
    return true;
  }

  succeeded(): void {
    this.failures = 0;
    if (this.current !== 'closed') this.close();
  }

  /** A time-out or error of a request that asked Redis. */
  failed(reason: string): void {
    if (this.current === 'closed' && ++this.failures < FAILURES_TO_OPEN) return;
    this.open(reason);
  }

  /** The connection is lost: open at once, nothing will be answered on it. */
  lost(reason: string): void {
    this.open(reason);
  }

  /** A new connection is ready: Redis answered its ready check. */
  connected(): void {
    this.succeeded();
  }

  private open(reason: string): void {
    const outage = this.current === 'closed';
    this.current = 'open';
    this.openedAt = this.now();
    this.failures = 0;
    if (outage) this.events.opened(reason);
  }

  private close(): void {
    this.current = 'closed';
    this.events.closed();
  }
}
