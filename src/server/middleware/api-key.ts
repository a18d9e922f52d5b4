/** X-APIKEY on every /apis/ route. A missing and a wrong key get the same answer. */
import type { Middleware } from 'koa';
import { HttpProblem } from '../problem.js';
import type { ServerState } from '../state.js';

export const API_KEY_HEADER = 'X-APIKEY';

export function apiKey(state: ServerState): Middleware {
  return async (ctx, next) => {
    if (ctx.path.startsWith('/apis/') || ctx.path === '/apis') {
      const presented = ctx.get(API_KEY_HEADER);
      const name = presented === '' ? undefined : state.keys.identify(presented);
      if (name === undefined) {
        throw new HttpProblem(401, 'unauthorized', 'Unauthorized', `send a valid API key in the ${API_KEY_HEADER} header`);
      }
      ctx.state.keyName = name;
    }
    await next();
  };
}
