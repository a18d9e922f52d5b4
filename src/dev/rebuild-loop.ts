/**
 * Saves rebuilt one at a time, for `facetform dev`: changes the watcher hands over during a rebuild
 * are merged and rebuilt right after it, so a burst of saves is never two compiles at once. Nothing
 * is rebuilt before start(): saves during the first compile and the server's start wait for it.
 */
import { performance } from 'node:perf_hooks';
import type { PreviewBuilder, RebuildResult } from './preview-builder.js';
import { type Changes, mergeChanges } from './watch.js';

/** `compileMs`: the rebuild's own time; `savedAt`: performance.now() of the first save it took in. */
export type Rebuilt = (result: RebuildResult, timing: { compileMs: number; savedAt: number }) => void;

export class RebuildLoop {
  private pending: Changes | undefined;
  private busy = true;

  constructor(
    private readonly builder: PreviewBuilder,
    private readonly rebuilt: Rebuilt,
    private readonly failed: (error: Error) => void,
  ) {}

  /** Changes the watcher saw: rebuilt now, or after the rebuild that is running. */
  changed(changes: Changes): void {
    this.pending = mergeChanges(this.pending, changes);
    if (!this.busy) void this.drain();
  }

  /** Rebuilds from now on, first what changed while it waited. */
  start(): void {
    this.busy = false;
    if (this.pending !== undefined) void this.drain();
  }

  private async drain(): Promise<void> {
    this.busy = true;
    try {
      while (this.pending !== undefined) {
        const changes = this.pending;
        this.pending = undefined;
        const started = performance.now();
        let result: RebuildResult;
        try {
          result = await this.builder.rebuild(changes.all ? undefined : changes.names);
        } catch (error) {
          this.failed(error as Error);
          continue;
        }
        this.rebuilt(result, { compileMs: performance.now() - started, savedAt: changes.firstAt });
      }
    } finally {
      this.busy = false;
    }
  }
}
