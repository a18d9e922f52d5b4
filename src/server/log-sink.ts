/**
 * Where the server's log lines go: stdout, through sonic-boom, in a way that can neither block
 * serving nor end the process. Lines wait in a bounded buffer while stdout is slow (a pipe nobody
 * reads); past it, and while stdout refuses writes (a full disk, a closed pipe), lines are dropped
 * and counted, and writing resumes when stdout takes them again.
 */
import { fstatSync, write } from 'node:fs';
import sonicBoom from 'sonic-boom';

const { SonicBoom } = sonicBoom; // a CommonJS module: no named exports in ESM

/** The most a write to a pipe may hold and still never interleave with another process's writes (Linux). */
const PIPE_BUF = 4096;

/** How much log text may wait for a slow stdout before new lines are dropped. */
const BUFFER_BYTES = 4 * 1024 * 1024;

let linesDropped = 0;

/** Log lines this process has dropped since it started: read by facetform_log_lines_dropped_total. */
export function logLinesDropped(): number {
  return linesDropped;
}

/** A pino destination. */
export interface LogSink {
  write(line: string): void;
  /** Writes what is buffered, waiting at most `timeoutMs`; lines logged afterwards are dropped. Never rejects. */
  close(timeoutMs: number): Promise<void>;
}

/** The sink for stdout; one per process. */
export function createLogSink(): LogSink {
  useNonBlocking(1);
  useNonBlocking(2);
  let closing: Promise<void> | undefined;
  let closed = false;
  /** The error code of the last failed write while stdout refuses writes, else undefined. */
  let refusing: string | undefined;
  /** Lines dropped since dropping began; undefined while nothing is being dropped. */
  let episode: number | undefined;
  const boom = new SonicBoom({
    fd: 1,
    // A log line per request must not cost a write per request: lines are gathered up to 3 KiB and
    // written at least every 250 ms (which also retries a refused write).
    minLength: 3072,
    // With WORKERS every process writes to one stdout: a write of whole lines up to PIPE_BUF is
    // atomic on a pipe, so lines of different workers never interleave mid-line.
    maxWrite: PIPE_BUF,
    periodicFlush: 250,
    maxLength: BUFFER_BYTES,
    // EAGAIN (a full pipe) is retried every 100 ms, until shutdown.
    retryEAGAIN: () => !closed,
  });

  const drop = (reason: string) => {
    linesDropped += 1;
    if (episode === undefined && !closed)
      tellOperator(`facetform: log lines are being dropped (${reason}); facetform_log_lines_dropped_total counts them\n`);
    episode = (episode ?? 0) + 1;
  };
  // pino writes one whole line per call, so a dropped write is one dropped line.
  boom.on('drop', () => drop(`stdout is slower than the log and ${BUFFER_BYTES / 1024 / 1024} MiB wait already`));
  // sonic-boom keeps the refused text and tries it again; until a write succeeds, new lines are dropped.
  boom.on('error', (error: NodeJS.ErrnoException) => {
    refusing = error.code ?? error.message;
  });
  boom.on('write', (bytes: number) => {
    if (bytes > 0) refusing = undefined;
  });
  // Emitted when the buffer is written: an episode of dropping ends.
  boom.on('drain', () => {
    if (episode === undefined) return;
    if (!closed) tellOperator(`facetform: stdout takes log lines again; ${episode} were dropped\n`);
    episode = undefined;
  });

  const close = (timeoutMs: number) =>
    new Promise<void>((resolve) => {
      const finish = (timedOut: boolean) => {
        if (closed) return;
        clearTimeout(timer);
        if (timedOut || refusing !== undefined)
          tellOperator(
            `facetform: shutting down with log lines not written (${refusing ?? `stdout did not take them within ${timeoutMs} ms`})\n`,
          );
        closed = true; // also stops EAGAIN retries, which would keep the process alive
        boom.destroy();
        resolve();
      };
      const timer = setTimeout(() => finish(true), timeoutMs);
      // sonic-boom calls a flush back on a drain, which comes while up to minLength may still wait
      // (the last lines, "stopped"), and with fsync's error on a pipe: so flush again until nothing
      // waits, or a write failed (refusing), or the time is up.
      const waiting = () => (boom as unknown as { _len?: number })._len ?? 0;
      const attempt = (): void => boom.flush(() => (closed || refusing !== undefined || waiting() === 0 ? finish(false) : attempt()));
      attempt();
    });

  return {
    write(line) {
      if (closed) linesDropped += 1;
      else if (refusing !== undefined) drop(`writing to stdout fails with ${refusing}`);
      else boom.write(line);
    },
    close(timeoutMs) {
      closing ??= close(timeoutMs);
      return closing;
    },
  };
}

/**
 * A write to a full pipe must fail with EAGAIN rather than hold a libuv thread until someone reads,
 * which would also keep the process from exiting. Node opens process.stdout and process.stderr as
 * non-blocking when they are pipes or sockets, so touching them once is enough (Node restores the
 * descriptor's flags at exit). Files and terminals are left as they are.
 */
function useNonBlocking(fd: 1 | 2): void {
  try {
    const stat = fstatSync(fd);
    if (stat.isFIFO() || stat.isSocket()) void (fd === 1 ? process.stdout : process.stderr).writable;
  } catch {
    // A closed descriptor: writes fail with EBADF, and log lines are dropped and counted.
  }
}

/** Tells whoever reads stderr, without waiting and ignoring failure: stderr may be as stuck as stdout. */
function tellOperator(text: string): void {
  write(2, text, () => {});
}
