/** Liveness, readiness and metrics, for probes and scrapers (metrics needs the key unless OPEN_ROUTES opens it). */
import { hotRoute, type Routers } from '../pipeline/hot-routes.js';
import { HttpProblem } from '../problem.js';
import type { RegistryStatus } from '../registry-status.js';
import type { ServerState } from '../state.js';
import { ROUTES } from './route-table.js';

export function healthRoutes(routers: Routers, state: ServerState): void {
  const { router } = routers;
  hotRoute(routers, 'get', ROUTES.health.path, (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get(ROUTES.ready.path, (ctx) => {
    const followed = state.registryStatus;
    // Following a registry with nothing served yet: not ready until a first poll brings releases.
    const waiting = followed !== undefined && state.registry.bundles.length === 0;
    if (!state.ready || waiting)
      throw new HttpProblem(
        'service-unavailable',
        waiting
          ? `the server is not ready: no release is served yet, and ${followed.source} ${followed.reachable === false ? `cannot be read (${followed.error})` : 'has not been read yet'}`
          : 'the server is not ready: bundles are loading or it is shutting down',
      );
    const workers = state.workers;
    const registry = followed === undefined ? {} : { registry: registryDetails(followed) };
    // Fewer workers than wanted, or a registry that cannot be read, still serves, so still ready (taking
    // this pod out would cut capacity further, and every pod reads the same registry); the answer says so.
    const degraded: string[] = [];
    if (workers !== undefined && workers.listening < workers.wanted) {
      const why = workers.failure === undefined ? 'a replacement is starting' : `a replacement could not start: ${workers.failure}`;
      degraded.push(`${workers.listening} of ${workers.wanted} workers serving; ${why}`);
    }
    if (followed?.reachable === false)
      degraded.push(`${followed.source} cannot be read (${followed.error}); the releases served stay as they are`);
    ctx.body = {
      status: degraded.length === 0 ? 'ready' : 'degraded',
      bundles: state.registry.bundles.length,
      ...(workers === undefined ? {} : { workers: { wanted: workers.wanted, listening: workers.listening } }),
      ...registry,
      ...(degraded.length === 0 ? {} : { detail: degraded.join('; ') }),
    };
  });

  router.get(ROUTES.metrics.path, async (ctx) => {
    let text: string;
    try {
      text = await state.metrics.scrape();
    } catch (error) {
      throw new HttpProblem('service-unavailable', `the metrics of the whole server could not be gathered: ${(error as Error).message}`);
    }
    ctx.type = (await state.metrics.registry()).contentType;
    ctx.body = text;
  });
}

/** The registry followed, as /readyz shows it. */
const registryDetails = (status: RegistryStatus) => ({
  source: status.source,
  reachable: status.reachable ?? null,
  signaturesChecked: status.verified,
  lastPoll: status.lastPoll ?? null,
  lastSuccess: status.lastSuccess ?? null,
  ...(status.error === undefined ? {} : { error: status.error }),
  pulled: status.pulled,
  refused: status.refused,
});
