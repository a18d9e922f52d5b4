/** Headers every API answer should carry: no MIME sniffing, and no caching of answers that depend on the key. */
import type { Middleware } from 'koa';

export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (ctx.path.startsWith('/apis/')) ctx.set('Cache-Control', 'no-store');
    await next();
  };
}
