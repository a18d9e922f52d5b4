/**
 * What every request passes through, in this order: request id → timing → in-flight answers →
 * errors → security headers → API key → rate limit → route → unknown methods; then its log line
 * and metrics. One Koa middleware calling a plain function per step, not a middleware per step:
 * each Koa dispatch costs a promise and a closure per request (docs/reliability.md, Performance).
 * Under `facetform dev`, the preview marking runs outside it (preview.ts).
 */
import type { Middleware } from 'koa';
import { isPublic } from '../public-paths.js';
import type { ServerState } from '../state.js';
import { requestLog, routeOf } from './access-log.js';
import { checkApiKey } from './api-key.js';
import { answerError, answerProblemsLeft } from './errors.js';
import { dispatcher, noop, type Routers } from './hot-routes.js';
import { holdAnswer } from './inflight-answers.js';
import { rateLimitStep } from './rate-limit.js';
import { assignRequestId } from './request-id.js';
import { setSecurityHeaders } from './security-headers.js';

export function requestPipeline(state: ServerState, routers: Routers): Middleware {
  const { router } = routers;
  const allowedMethods = router.allowedMethods();
  // What the router does when no route takes the method: allowedMethods sets 405 with Allow for a path that exists.
  const route = dispatcher(routers, (ctx) => allowedMethods(ctx as never, noop));
  const rateLimit = rateLimitStep(state.rateLimiter);
  const log = requestLog(state.logger);
  return async (ctx) => {
    const started = performance.now();
    const requestId = assignRequestId(ctx.req, ctx.res);
    ctx.state.requestId = requestId;
    try {
      try {
        const path = ctx.path;
        const publicPath = isPublic(path);
        setSecurityHeaders(ctx.res, publicPath);
        const keyName = checkApiKey(state, ctx.req.headers, path, publicPath);
        if (keyName !== undefined) {
          ctx.state.keyName = keyName;
          const waiting = rateLimit(keyName, ctx.res);
          if (waiting !== undefined) await waiting;
        }
        await route(ctx);
        answerProblemsLeft(ctx);
      } catch (error) {
        answerError(state, ctx, error);
      }
      holdAnswer(state.inflight, ctx);
    } finally {
      const durationMs = performance.now() - started;
      const route = routeOf(ctx as never);
      state.metrics.observeRequest(ctx.method, route, ctx.status, durationMs / 1000);
      log({
        method: ctx.method,
        route,
        path: ctx.path,
        status: ctx.status,
        durationMs: Math.round(durationMs * 1000) / 1000,
        requestId,
        key: ctx.state.keyName as string | undefined,
      });
    }
  };
}
