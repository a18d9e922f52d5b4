/**
 * Answers count against the process's in-flight bytes (MAX_INFLIGHT_BYTES) from when they are
 * made until the connection has taken them or is gone; past the limit the answer is a 503 with
 * Retry-After instead. A client that never reads keeps its answer only until STALL_TIMEOUT_MS.
 */
import type { Middleware } from 'koa';
import { serverBusy } from '../problem.js';
import type { ServerState } from '../state.js';
import { sendProblem } from './errors.js';

export function inflightAnswers(state: ServerState): Middleware {
  return async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    // Only text and bytes: what Koa serialises from an object is small (discovery) and made only when sent.
    if (!ctx.writable || (typeof body !== 'string' && !Buffer.isBuffer(body))) return;
    const bytes = ctx.response.length ?? 0;
    const owner = (ctx.state.keyName as string | undefined) ?? '';
    if (!state.inflight.reserve(owner, bytes)) {
      // What described the answer does not describe the problem that replaces it.
      for (const name of Object.keys(ctx.response.headers)) if (name === 'warning' || name.startsWith('x-facetform-')) ctx.remove(name);
      sendProblem(ctx, serverBusy(`an answer of ${bytes} bytes`));
      return;
    }
    ctx.res.once('close', () => state.inflight.release(owner, bytes));
  };
}
