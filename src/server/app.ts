/**
 * The Koa application: small middleware, each doing one thing, in this order:
 * request id → access log → in-flight answers → errors → security headers → API key → rate limit →
 * unknown methods → routes. Under `facetform dev`, the preview marking comes first (preview.ts).
 */
import Router from '@koa/router';
import Koa from 'koa';
import { accessLog } from './middleware/access-log.js';
import { apiKey } from './middleware/api-key.js';
import { errors } from './middleware/errors.js';
import { inflightAnswers } from './middleware/inflight-answers.js';
import { rateLimit } from './middleware/rate-limit.js';
import { requestId } from './middleware/request-id.js';
import { securityHeaders } from './middleware/security-headers.js';
import { unknownMethods } from './middleware/unknown-methods.js';
import { batchRoutes } from './routes/batch.js';
import { consoleRoutes } from './routes/console.js';
import { discoveryRoutes } from './routes/discovery.js';
import { docsRoutes } from './routes/docs.js';
import { execRoutes } from './routes/exec.js';
import { healthRoutes } from './routes/health.js';
import { schemaRoutes } from './routes/schemas.js';
import { previewMarking, previewRoutes } from './preview.js';
import type { ServerState } from './state.js';

export function createApp(state: ServerState): Koa {
  const app = new Koa({ proxy: false });
  // Errors are answered and logged by the errors middleware; Koa's own printer would log them twice.
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
  app.use(requestId());
  app.use(accessLog(state));
  app.use(inflightAnswers(state));
  app.use(errors(state));
  app.use(securityHeaders());
  app.use(apiKey(state));
  app.use(rateLimit(state));
  app.use(unknownMethods(router));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
