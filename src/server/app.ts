/**
 * The Koa application: the request pipeline (pipeline/request-pipeline.ts) around the router. Under
 * `facetform dev`, the preview marking comes first (preview.ts).
 */
import Router from '@koa/router';
import Koa from 'koa';
import { requestPipeline } from './pipeline/request-pipeline.js';
import { batchRoutes } from './routes/batch.js';
import { consoleRoutes } from './routes/console.js';
import { discoveryRoutes } from './routes/discovery.js';
import { docsRoutes } from './routes/docs.js';
import { EXEC_PATH, execRoutes } from './routes/exec.js';
import { HEALTH_PATH, healthRoutes } from './routes/health.js';
import { previewRoutes } from './routes/preview.js';
import { schemaRoutes } from './routes/schemas.js';
import { previewMarking } from './preview.js';
import type { ServerState } from './state.js';

export function createApp(state: ServerState): Koa {
  const app = new Koa({ proxy: false });
  // Errors are answered and logged by the pipeline (pipeline/errors.ts); Koa's own printer would log them twice.
  app.silent = true;
  // Case-sensitive and strict, so that /Apis/… or /healthz/ is not a second name for a route.
  const router = new Router({ sensitive: true, strict: true });
  if (state.preview !== undefined) previewRoutes(router, state, state.preview);
  execRoutes(router, state);
  batchRoutes(router, state);
  discoveryRoutes(router, state);
  docsRoutes(router, state);
  schemaRoutes(router, state);
  consoleRoutes(router);
  healthRoutes(router, state);

  if (state.preview !== undefined) app.use(previewMarking(state.preview));
  app.use(
    requestPipeline(state, router, [
      { method: 'POST', path: EXEC_PATH },
      { method: 'GET', path: HEALTH_PATH },
    ]),
  );
  return app;
}
