/** Headers every API answer should carry: no MIME sniffing, and no caching of answers that depend on the key. */
import type { Middleware } from 'koa';
import { isPublic } from '../public-paths.js';

export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (!isPublic(ctx.path)) ctx.set('Cache-Control', 'no-store');
    await next();
  };
}
