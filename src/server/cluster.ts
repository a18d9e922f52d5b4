/**
 * WORKERS=n: one primary process and n workers serving the same port (node:cluster), to use every
 * core of one machine. The primary builds and checks the bundles, makes the API key when none is
 * configured, passes SIGHUP on to the workers, replaces a worker that dies, and on SIGTERM or
 * SIGINT lets every worker finish its requests before it exits.
 */
import cluster, { type Worker } from 'node:cluster';

export const WORKER_ENV = 'FACETFORM_WORKER';

export function isWorker(): boolean {
  return cluster.isWorker && process.env[WORKER_ENV] === '1';
}

/** Sent by a worker once it listens. */
export interface ListeningMessage {
  type: 'facetform:listening';
  url: string;
}

export function announceListening(url: string): void {
  process.send?.({ type: 'facetform:listening', url } satisfies ListeningMessage);
}

/** The key the primary made, sent over the IPC channel rather than the environment, which others can read. */
interface KeyMessage {
  type: 'facetform:key';
  key: string;
}

export const KEY_FROM_PRIMARY_ENV = 'FACETFORM_KEY_FROM_PRIMARY';

export function receiveKey(): Promise<string> {
  return new Promise((resolve) => {
    const listen = (message: KeyMessage) => {
      if (message?.type !== 'facetform:key') return;
      process.off('message', listen);
      resolve(message.key);
    };
    process.on('message', listen);
    // Asked for once listening: a message sent before a listener is there would be lost.
    process.send?.({ type: 'facetform:want-key' });
  });
}

export interface PrimaryOptions {
  workers: number;
  env: Record<string, string>;
  /** A key made for this run, handed to each worker over IPC. */
  key?: string | undefined;
  /** Told once, when the first worker listens. */
  onListening(url: string): void;
  /** Human messages. */
  say(text: string): void;
}

/** Runs the workers until SIGTERM or SIGINT; resolves with the exit code. */
export function runPrimary(options: PrimaryOptions): Promise<number> {
  return new Promise((resolve) => {
    let stopping = false;
    let listening = 0;
    // A worker that keeps dying (a broken dist/, a full disk) is restarted ever more slowly.
    let restartDelayMs = 0;
    let lastRestart = 0;
    const fork = (): Worker => {
      const worker = cluster.fork({ ...options.env, [WORKER_ENV]: '1', ...(options.key === undefined ? {} : { [KEY_FROM_PRIMARY_ENV]: '1' }) });
      worker.on('message', (message: ListeningMessage | { type: 'facetform:want-key' }) => {
        if (message?.type === 'facetform:want-key' && options.key !== undefined) worker.send({ type: 'facetform:key', key: options.key } satisfies KeyMessage);
        if (message?.type === 'facetform:listening' && listening++ === 0) options.onListening(message.url);
      });
      return worker;
    };
    for (let index = 0; index < options.workers; index++) fork();

    cluster.on('exit', (worker, code, signal) => {
      if (stopping) {
        if (Object.keys(cluster.workers ?? {}).length === 0) resolve(0);
        return;
      }
      if (listening === 0) {
        // A worker that dies before any worker listens will not do better on a second try.
        stopping = true;
        for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
        options.say(`a worker exited (${signal ?? code}) before the server was listening; stopping\n`);
        resolve(1);
        return;
      }
      const now = Date.now();
      restartDelayMs = now - lastRestart > 30_000 ? 0 : Math.min(Math.max(restartDelayMs * 2, 250), 30_000);
      lastRestart = now;
      options.say(`worker ${worker.process.pid} exited (${signal ?? code}); starting another${restartDelayMs > 0 ? ` in ${restartDelayMs} ms` : ''}\n`);
      setTimeout(() => {
        if (!stopping) fork();
      }, restartDelayMs).unref();
    });

    process.on('SIGHUP', () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGHUP');
    });
    const stop = () => {
      if (stopping) return;
      stopping = true;
      const workers = Object.values(cluster.workers ?? {});
      if (workers.length === 0) resolve(0);
      for (const worker of workers) worker?.process.kill('SIGTERM');
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}
