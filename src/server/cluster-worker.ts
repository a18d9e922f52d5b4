/**
 * A worker's side of WORKERS=n (cluster-primary.ts runs the primary): the messages a worker and the
 * primary send each other over the IPC channel, and the environment that tells a process it is a
 * worker.
 */
import cluster from 'node:cluster';
import type { RegistryStatus } from './registry-status.js';

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

/** Sent by a worker that cannot start, just before it exits: the primary repeats why. */
export interface StartFailedMessage {
  type: 'facetform:start-failed';
  reason: string;
}

/**
 * Tells the primary why this worker cannot start, then closes the IPC channel, which would keep the
 * worker alive: it exits once its error is printed, with the command's exit code. (cluster.worker's
 * disconnect, not process.disconnect, which makes a worker exit at once with 0.)
 */
export function reportStartFailure(reason: string): Promise<void> {
  return new Promise((resolve) => {
    if (process.send === undefined) return resolve();
    process.send({ type: 'facetform:start-failed', reason } satisfies StartFailedMessage, undefined, {}, () => {
      cluster.worker?.disconnect();
      resolve();
    });
  });
}

/** How many workers serve, as the primary sees it; sent to every worker for /readyz. */
export interface WorkerCapacity {
  wanted: number;
  listening: number;
  /** Why the last replacement could not start, while fewer than wanted are listening. */
  failure?: string | undefined;
}

export interface CapacityMessage extends WorkerCapacity {
  type: 'facetform:capacity';
}

export function onCapacity(update: (capacity: WorkerCapacity) => void): void {
  process.on('message', (message: CapacityMessage) => {
    if (message?.type === 'facetform:capacity') update({ wanted: message.wanted, listening: message.listening, failure: message.failure });
  });
}

/** The key the primary made, sent over the IPC channel rather than the environment, which others can read. */
export interface KeyMessage {
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

/** What the primary knows of the registry it follows (BUNDLES_FROM), sent to every worker after each poll, for /readyz. */
export interface RegistryStatusMessage {
  type: 'facetform:registry-status';
  status: RegistryStatus;
}

export function onRegistryStatus(update: (status: RegistryStatus) => void): void {
  process.on('message', (message: RegistryStatusMessage) => {
    if (message?.type === 'facetform:registry-status') update(message.status);
  });
}
