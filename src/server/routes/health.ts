/** Liveness, readiness and metrics, for probes and scrapers (metrics needs the key unless OPEN_ROUTES opens it). */
import type Router from '@koa/router';
import { HttpProblem } from '../problem.js';
import type { ServerState } from '../state.js';

export const HEALTH_PATH = '/healthz';

export function healthRoutes(router: Router, state: ServerState): void {
  router.get(HEALTH_PATH, (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', (ctx) => {
    if (!state.ready)
      throw new HttpProblem(
        503,
        'service-unavailable',
        'Service unavailable',
        'the server is not ready: bundles are loading or it is shutting down',
      );
    const workers = state.workers;
    // Fewer workers than wanted still serves, so still ready (taking this pod out would cut capacity
    // further); the answer says so, for people and dashboards.
    if (workers !== undefined && workers.listening < workers.wanted) {
      const why = workers.failure === undefined ? 'a replacement is starting' : `a replacement could not start: ${workers.failure}`;
      ctx.body = {
        status: 'degraded',
        bundles: state.registry.bundles.length,
        workers: { wanted: workers.wanted, listening: workers.listening },
        detail: `${workers.listening} of ${workers.wanted} workers serving; ${why}`,
      };
      return;
    }
    ctx.body = {
      status: 'ready',
      bundles: state.registry.bundles.length,
      ...(workers === undefined ? {} : { workers: { wanted: workers.wanted, listening: workers.listening } }),
    };
  });

  router.get('/metrics', async (ctx) => {
    let text: string;
    try {
      text = await state.metrics.scrape();
    } catch (error) {
      throw new HttpProblem(
        503,
        'service-unavailable',
        'Service unavailable',
        `the metrics of the whole server could not be gathered: ${(error as Error).message}`,
      );
    }
    ctx.type = (await state.metrics.registry()).contentType;
    ctx.body = text;
  });
}
