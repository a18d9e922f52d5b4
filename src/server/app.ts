/**
 * The Koa application: the request pipeline (pipeline/request-pipeline.ts) around the router. Under
 * `facetform dev`, the preview marking comes first (preview.ts).
 */
import Koa from 'koa';
import { createRouters } from './pipeline/hot-routes.js';
import { requestPipeline } from './pipeline/request-pipeline.js';
import { batchRoutes } from './routes/batch.js';
import { consoleRoutes } from './routes/console.js';
import { discoveryRoutes } from './routes/discovery.js';
import { docsRoutes } from './routes/docs.js';
import { execRoutes } from './routes/exec.js';
import { healthRoutes } from './routes/health.js';
import { previewRoutes } from './routes/preview.js';
import { schemaRoutes } from './routes/schemas.js';
import { previewMarking } from './preview-marking.js';
import type { ServerState } from './state.js';

export function createApp(state: ServerState): Koa {
  const app = new Koa({ proxy: false });
  // Errors are answered and logged by the pipeline (pipeline/errors.ts); Koa's own printer would log them twice.
  app.silent = true;
  // exec and /healthz are also in a router of their own, tried first (pipeline/hot-routes.ts).
  const routers = createRouters();
  const { router } = routers;
  if (state.preview !== undefined) previewRoutes(router, state, state.preview);
  execRoutes(routers, state);
  batchRoutes(router, state);
  discoveryRoutes(router, state);
  docsRoutes(router, state);
  schemaRoutes(router, state);
  consoleRoutes(router);
  healthRoutes(routers, state);

  if (state.preview !== undefined) app.use(previewMarking(state.preview));
  app.use(requestPipeline(state, routers));
  return app;
}
