/**
 * The routes of `facetform dev` only (src/server/preview.ts): the events the console listens to
 * (`GET /dev/events`, Server-Sent Events), and a collection's TypeScript declarations, made when
 * asked since a preview writes no files.
 */
import { PassThrough } from 'node:stream';
import type Router from '@koa/router';
import { queryParameters } from '../pipeline/query-parameters.js';
import type { Preview } from '../preview.js';
import type { PreviewStatus } from '../preview-status.js';
import type { ServerState } from '../state.js';
import { queryOf, ROUTES } from './route-table.js';
import { findCollection, setBundleHeaders } from './lookup.js';

/** How often an idle event stream says something, so that no proxy or idle timeout closes it. */
const HEARTBEAT_MS = 15_000;

/** Routes of the preview only; registered before the others, so that its types route is the one that answers. */
export function previewRoutes(router: Router, state: ServerState, preview: Preview): void {
  router.get(ROUTES.previewEvents.path, queryParameters(queryOf(ROUTES.previewEvents)), (ctx) => {
    // An event stream is idle for long stretches: the stall timeout of answers does not apply to it.
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    const stream = new PassThrough();
    preview.open(stream);
    ctx.status = 200;
    ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = stream;
    const send = (status: PreviewStatus) => stream.write(`event: status\ndata: ${JSON.stringify(status)}\n\n`);
    // The browser reconnects after a restart on its own; a second is enough of a wait.
    stream.write('retry: 1000\n\n');
    send(preview.status);
    const unsubscribe = preview.subscribe(send);
    const heartbeat = setInterval(() => stream.write(': still here\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      unsubscribe();
      stream.end();
    };
    ctx.res.once('close', end);
    stream.once('close', end);
  });

  // The build writes declarations beside the bundle; a preview has no files, so they are made when asked.
  router.get(ROUTES.types.path, queryParameters(queryOf(ROUTES.types)), async (ctx) => {
    const found = findCollection(state, ctx);
    setBundleHeaders(ctx, found.bundle);
    ctx.body = await preview.typeDeclarations(found);
    ctx.set('Content-Type', 'text/plain; charset=utf-8');
  });
}
