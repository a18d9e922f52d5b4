/** X-Request-Id: taken from the caller when it is a sensible token, made otherwise, and echoed. */
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(): Middleware {
  return async (ctx, next) => {
    const given = ctx.get('X-Request-Id');
    ctx.state.requestId = REQUEST_ID.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    await next();
  };
}
