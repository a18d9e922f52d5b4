/**
 * Watching the repositories folder for `facetform dev`: one recursive fs.watch (inotify on Linux
 * since Node 20, FSEvents on macOS, ReadDirectoryChangesW on Windows), which also sees folders made
 * later and files that editors save by writing a temporary file and renaming it over the original.
 * Events come in bursts (an editor's save is several); they are gathered until the folder has been
 * quiet for `quietMs`, at most `maxWaitMs` after the first, and handed over as the repositories they
 * touched, with the time of the first event: the save.
 */
import { watch, type FSWatcher } from 'node:fs';
import { performance } from 'node:perf_hooks';

export interface Changes {
  /** Top-level entries of the folder that changed: repository folder names (or stray files). */
  names: Set<string>;
  /** The watcher could not say what changed: look at everything. */
  all: boolean;
  /** performance.now() of the first event. */
  firstAt: number;
}

export interface WatchOptions {
  quietMs?: number;
  maxWaitMs?: number;
  onError?: (error: Error) => void;
}

export function mergeChanges(into: Changes | undefined, from: Changes): Changes {
  if (into === undefined) return { names: new Set(from.names), all: from.all, firstAt: from.firstAt };
  for (const name of from.names) into.names.add(name);
  into.all ||= from.all;
  into.firstAt = Math.min(into.firstAt, from.firstAt);
  return into;
}

export function watchRepositories(reposDir: string, onChanges: (changes: Changes) => void, options: WatchOptions = {}): { close(): void } {
  const quietMs = options.quietMs ?? 40;
  const maxWaitMs = options.maxWaitMs ?? 250;
  let pending: Changes | undefined;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const changes = pending;
    pending = undefined;
    if (changes !== undefined) onChanges(changes);
  };
  const watcher: FSWatcher = watch(reposDir, { recursive: true }, (_event, filename) => {
    const now = performance.now();
    const name = filename === null ? undefined : String(filename).split(/[\\/]/)[0];
    pending = mergeChanges(pending, {
      names: new Set(name === undefined || name === '' ? [] : [name]),
      all: name === undefined || name === '',
      firstAt: now,
    });
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(flush, Math.max(0, Math.min(quietMs, pending.firstAt + maxWaitMs - now)));
  });
  watcher.on('error', (error) => options.onError?.(error));
  return {
    close() {
      if (timer !== undefined) clearTimeout(timer);
      watcher.close();
    },
  };
}
