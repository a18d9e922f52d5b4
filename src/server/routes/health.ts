/** Liveness, readiness and metrics: no key needed, for probes and scrapers. */
import type Router from '@koa/router';
import { HttpProblem } from '../problem.js';
import type { ServerState } from '../state.js';

export function healthRoutes(router: Router, state: ServerState): void {
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', (ctx) => {
    if (!state.ready) throw new HttpProblem(503, 'service-unavailable', 'Service unavailable', 'the server is not ready: bundles are loading or it is shutting down');
    ctx.body = { status: 'ready', bundles: state.registry.bundles.length };
  });

  router.get('/metrics', async (ctx) => {
    ctx.type = state.metrics.registry.contentType;
    ctx.body = await state.metrics.registry.metrics();
  });
}
