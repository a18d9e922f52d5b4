/**
 * Answers count against the process's in-flight bytes (MAX_INFLIGHT_BYTES) from when they are
 * made until the connection has taken them or is gone; past the limit the answer is a 503 with
 * Retry-After instead. A client that never reads keeps its answer only until STALL_TIMEOUT_MS.
 */
import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import type { InflightBytes } from '../inflight-bytes.js';
import { serverBusy } from '../problem.js';
import { sendProblem } from './errors.js';

/** What an answer holds, kept on its response so that one listener function serves every answer. */
const HELD = Symbol('facetform.heldAnswer');
type Holding = ServerResponse & { [HELD]?: { inflight: InflightBytes; owner: string; bytes: number } };

function releaseAnswer(this: Holding): void {
  const held = this[HELD]!;
  held.inflight.release(held.owner, held.bytes);
}

/** Reserves the answer's bytes until the connection is done with it, or replaces it with a 503. */
export function holdAnswer(inflight: InflightBytes, ctx: Context): void {
  const body: unknown = ctx.body;
  // Only text and bytes: what Koa serialises from an object is small (discovery) and made only when sent.
  if (!ctx.writable || (typeof body !== 'string' && !Buffer.isBuffer(body))) return;
  const bytes = ctx.response.length ?? 0;
  const owner = (ctx.state.keyName as string | undefined) ?? '';
  if (!inflight.reserve(owner, bytes)) {
    // What described the answer does not describe the problem that replaces it.
    for (const name of Object.keys(ctx.response.headers)) if (name === 'warning' || name.startsWith('x-facetform-')) ctx.remove(name);
    sendProblem(ctx, serverBusy(`an answer of ${bytes} bytes`));
    return;
  }
  const res = ctx.res as Holding;
  res[HELD] = { inflight, owner, bytes };
  res.once('close', releaseAnswer);
}
