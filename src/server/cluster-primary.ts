/**
 * WORKERS=n: one primary process and n workers serving the same port (node:cluster), to use every
 * core of one machine. The primary builds and checks the bundles, makes the API key when none is
 * configured, passes SIGHUP on to the workers, replaces a worker that dies, and on SIGTERM or
 * SIGINT lets every worker finish its requests before it exits. It stops, non-zero, when no worker
 * can start; when only a replacement cannot, it keeps trying and says so in its log, its metrics
 * and every worker's /readyz.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { Counter, Gauge, Registry } from 'prom-client';
import { ClusterMetrics } from './cluster-metrics.js';
import {
  type CapacityMessage,
  KEY_FROM_PRIMARY_ENV,
  type KeyMessage,
  type ListeningMessage,
  type RegistryStatusMessage,
  type StartFailedMessage,
  WORKER_ENV,
  type WorkerCapacity,
} from './cluster-worker.js';
import { backOff } from './back-off.js';
import { closeUnansweredHandoffs } from './cluster-handoff.js';
import { countLogDrops, registerRegistryMetrics } from './metrics-registry.js';
import type { RegistryFollower } from './registry-follower.js';
import type { RegistryStatus } from './registry-status.js';

export interface PrimaryOptions {
  workers: number;
  env: Record<string, string>;
  /** A key made for this run, handed to each worker over IPC. */
  key?: string | undefined;
  /** Told once, when the first worker listens. */
  onListening(url: string): void;
  /** Human messages at start and stop. */
  say(text: string): void;
  /** What happens to workers while serving, as JSON lines beside the workers' own. */
  logger: Logger;
  /**
   * Makes the follower of BUNDLES_FROM, which the primary alone runs: it tells the workers to reload
   * when a poll adds releases, and sends them the registry's status after every poll, for /readyz.
   */
  follow?: (reloadWorkers: () => void, onPolled: (status: RegistryStatus) => void) => RegistryFollower;
  /** Whether the workers start only once the first poll ends (nothing is served before it). */
  firstPollBeforeWorkers?: boolean;
}

/** The primary's own metrics, served with the workers' sums. */
function workerMetrics(registry: Registry, wanted: number) {
  new Gauge({ name: 'facetform_workers_wanted', help: 'Worker processes configured (WORKERS).', registers: [registry] }).set(wanted);
  return {
    listening: new Gauge({
      name: 'facetform_workers_listening',
      help: 'Worker processes serving now; fewer than wanted means a worker could not be replaced.',
      registers: [registry],
    }),
    exits: new Counter({
      name: 'facetform_worker_exits_total',
      help: 'Worker processes that exited while the server was serving.',
      registers: [registry],
    }),
    startFailures: new Counter({
      name: 'facetform_worker_start_failures_total',
      help: 'Replacement workers that exited before they listened.',
      registers: [registry],
    }),
  };
}

/** Runs the workers until SIGTERM or SIGINT; resolves with the exit code. */
export function runPrimary(options: PrimaryOptions): Promise<number> {
  return new Promise((resolve) => {
    const { logger } = options;
    const registry = new Registry();
    const metrics = workerMetrics(registry, options.workers);
    countLogDrops(registry); // the primary's own, summed with the workers'
    let stopping = false;
    let everListened = false;
    const listening = new Set<number>();
    const clusterMetrics = new ClusterMetrics(registry, listening);
    const failures = new Map<number, string>();
    let lastFailure: string | undefined;
    // A worker that keeps dying (a broken dist/, a full disk) is restarted ever more slowly.
    let restartDelayMs = 0;
    let lastRestart = 0;
    const restarts = new Set<NodeJS.Timeout>();

    const capacity = (): WorkerCapacity => ({
      wanted: options.workers,
      listening: listening.size,
      failure: listening.size < options.workers ? lastFailure : undefined,
    });
    const tellWorkers = () => {
      metrics.listening.set(listening.size);
      const message: CapacityMessage = { type: 'facetform:capacity', ...capacity() };
      for (const worker of Object.values(cluster.workers ?? {})) if (worker?.isConnected()) worker.send(message);
    };

    const sendRegistryStatus = (worker: Worker | undefined, status: RegistryStatus) => {
      if (worker?.isConnected()) worker.send({ type: 'facetform:registry-status', status } satisfies RegistryStatusMessage);
    };
    // Releases added by polls so far, and how many there were when each worker was forked: a worker
    // is signalled only once it listens (before, SIGHUP would end it), and then if it missed any.
    let additions = 0;
    const additionsAtFork = new Map<number, number>();
    const follower = options.follow?.(
      () => {
        additions++;
        for (const worker of Object.values(cluster.workers ?? {}))
          if (worker !== undefined && listening.has(worker.id)) worker.process.kill('SIGHUP');
      },
      (status) => {
        for (const worker of Object.values(cluster.workers ?? {})) sendRegistryStatus(worker, status);
      },
    );
    if (follower !== undefined) registerRegistryMetrics(registry, () => follower.status);

    const fork = (): Worker => {
      const worker = cluster.fork({
        ...options.env,
        [WORKER_ENV]: '1',
        ...(options.key === undefined ? {} : { [KEY_FROM_PRIMARY_ENV]: '1' }),
      });
      closeUnansweredHandoffs(worker);
      worker.on('message', (message: ListeningMessage | StartFailedMessage | { type: 'facetform:want-key' }) => {
        if (message?.type === 'facetform:want-key' && options.key !== undefined)
          worker.send({ type: 'facetform:key', key: options.key } satisfies KeyMessage);
        if (message?.type === 'facetform:start-failed') failures.set(worker.id, message.reason);
        if (message?.type === 'facetform:listening') {
          listening.add(worker.id);
          if (!everListened) options.onListening(message.url);
          else if (listening.size === options.workers && lastFailure !== undefined)
            logger.info(
              { worker: worker.process.pid, listening: listening.size, wanted: options.workers },
              'every worker is serving again',
            );
          everListened = true;
          if (listening.size === options.workers) lastFailure = undefined;
          tellWorkers();
          if (follower !== undefined) sendRegistryStatus(worker, follower.status);
          if ((additionsAtFork.get(worker.id) ?? additions) < additions) worker.process.kill('SIGHUP');
        }
      });
      additionsAtFork.set(worker.id, additions);
      return worker;
    };
    const forkAll = () => {
      for (let index = 0; index < options.workers; index++) fork();
    };
    const firstPoll = follower?.start();
    if (firstPoll !== undefined && options.firstPollBeforeWorkers) void firstPoll.finally(forkAll);
    else forkAll();

    // A worker's 'exit' may come before the last messages on its channel (why it failed): those are
    // all read once the channel closes.
    cluster.on('exit', (worker, code, signal) => {
      if (worker.isConnected()) worker.process.once('disconnect', () => exited(worker, code, signal));
      else exited(worker, code, signal);
    });
    const exited = (worker: Worker, code: number | null, signal: string | null) => {
      const wasListening = listening.delete(worker.id);
      additionsAtFork.delete(worker.id);
      const reason = failures.get(worker.id) ?? `exited (${signal ?? code})`;
      failures.delete(worker.id);
      void clusterMetrics.retire(worker.id);
      if (stopping) {
        if (Object.keys(cluster.workers ?? {}).length === 0) resolve(0);
        return;
      }
      if (!everListened) {
        // No worker has ever listened: the next would fail the same way. Stop, and say why.
        stopping = true;
        for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
        options.say(`no worker could start (worker ${worker.process.pid}: ${reason}); stopping\n`);
        resolve(typeof code === 'number' && code !== 0 ? code : 1);
        return;
      }
      metrics.exits.inc();
      const now = Date.now();
      restartDelayMs = now - lastRestart > 30_000 ? 0 : backOff(restartDelayMs, 250, 30_000);
      lastRestart = now;
      const state = {
        worker: worker.process.pid,
        code,
        signal,
        listening: listening.size,
        wanted: options.workers,
        retryInMs: restartDelayMs,
      };
      if (wasListening) {
        logger.warn(state, 'a worker exited; starting another');
      } else {
        // A replacement that cannot start is not retried in silence: every failed try is an error line.
        metrics.startFailures.inc();
        lastFailure = reason;
        logger.error(
          { ...state, reason },
          `a replacement worker could not start; ${listening.size} of ${options.workers} workers serving; trying again`,
        );
      }
      tellWorkers();
      // Not unref'd: with every worker gone, this timer is what keeps the primary alive to try again.
      const timer = setTimeout(() => {
        restarts.delete(timer);
        if (!stopping) fork();
      }, restartDelayMs);
      restarts.add(timer);
    };

    process.on('SIGHUP', () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGHUP');
      follower?.reloadTrust();
      void follower?.poll();
    });
    const stop = () => {
      if (stopping) return;
      stopping = true;
      follower?.stop();
      for (const timer of restarts) clearTimeout(timer);
      const workers = Object.values(cluster.workers ?? {});
      if (workers.length === 0) resolve(0);
      for (const worker of workers) worker?.process.kill('SIGTERM');
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}
