/**
 * Connections the primary hands to a worker that dies before taking them. node:cluster's
 * round-robin primary accepts each connection, sends it to a worker ({ act: 'newconn' }) and keeps
 * its own copy until the worker acknowledges it; a worker killed in between (busy, or stopped) never
 * does, so the primary holds the connection open for good and its client waits until its own timeout
 * (10–30 s in the probe, for ever without one). A worker answers ({ ack }) as soon as it takes the
 * connection, before it reads anything, so one still unanswered when the worker is gone was never
 * served: the primary closes it, and the client sees a reset at once, as it does for the requests the
 * worker was serving (the kernel closes those).
 */
import type { Worker } from 'node:cluster';

/** The messages of node:cluster's protocol (lib/internal/cluster/round_robin_handle.js, utils.js) read here. */
interface ClusterMessage {
  cmd?: unknown;
  act?: unknown;
  seq?: unknown;
  ack?: unknown;
}

interface Closable {
  close(): void;
}

const isCluster = (message: unknown): message is ClusterMessage =>
  typeof message === 'object' && message !== null && (message as ClusterMessage).cmd === 'NODE_CLUSTER';

/** Closes, when `worker`'s channel closes, every connection sent to it that it never answered for. */
export function closeUnansweredHandoffs(worker: Worker): void {
  const child = worker.process;
  const unanswered = new Map<number, Closable>();
  const send = child.send;
  // sendHelper calls `proc.send(message, handle)`: the one place a handed connection can be seen.
  child.send = function (this: typeof child, ...args: unknown[]) {
    const [message, handle] = args;
    if (isCluster(message) && message.act === 'newconn' && typeof message.seq === 'number' && handle !== undefined)
      unanswered.set(message.seq, handle as Closable);
    return (send as (...rest: unknown[]) => boolean).apply(this, args);
  } as typeof child.send;
  // The worker's answer, accepted or not: node:cluster closes or redistributes the connection itself.
  child.on('internalMessage', (message: unknown) => {
    if (isCluster(message) && typeof message.ack === 'number') unanswered.delete(message.ack);
  });
  // 'close' comes once the worker has exited and its channel is read to the end: no answer is left to
  // come. Not 'disconnect': node:child_process never emits it when the channel ends with a connection
  // in flight, and that connection's copy is never closed either (lib/internal/child_process.js).
  child.once('close', () => {
    for (const handle of unanswered.values()) handle.close();
    unanswered.clear();
  });
}
