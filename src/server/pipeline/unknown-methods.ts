/**
 * Methods the router has never heard of (PROPFIND, …) come back from it as 501. For a path that
 * exists that is a 405 with the methods the path takes; otherwise a 404.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';

export function answerUnknownMethod(router: Router, ctx: Context): void {
  if (ctx.status !== 501 || (ctx.body !== undefined && ctx.body !== null)) return;
  const methods = new Set(router.match(ctx.path, ctx.method).path.flatMap((layer) => layer.methods));
  if (methods.size === 0) {
    ctx.status = 404;
    return;
  }
  ctx.status = 405;
  ctx.set('Allow', [...methods].join(', '));
}
