/** One structured log line per request: method, route, status, duration, request id, key name. Never the key. */
import type { Middleware } from 'koa';
import type { ServerState } from '../state.js';

export function routeOf(ctx: { _matchedRoute?: string | RegExp }): string {
  return typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : 'unmatched';
}

export function accessLog(state: ServerState): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const route = routeOf(ctx as never);
      state.metrics.observeRequest(ctx.method, route, ctx.status, durationMs / 1000);
      state.logger.info(
        {
          method: ctx.method,
          route,
          path: ctx.path,
          status: ctx.status,
          durationMs: Math.round(durationMs * 1000) / 1000,
          requestId: ctx.state.requestId,
          key: ctx.state.keyName,
        },
        'request',
      );
    }
  };
}
