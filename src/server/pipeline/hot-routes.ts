/**
 * The routes that carry the traffic (exec, /healthz) are tried before the router, one precompiled
 * test each: @koa/router tests every route and composes a new chain for each request, which cost
 * exec more than its render (issue 20). The test is the router's own layer, so a path matches here
 * exactly when it matches there; the routes stay registered in the router, which answers their
 * other methods (405) and lists them.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';

export interface HotRoute {
  method: string;
  path: string;
}

type Layer = Router['stack'][number];

/** The `next` of a route that is last in its chain. */
export const noop = async () => {};
/** What a hot route whose handler answers synchronously (/healthz) gives back: undefined would mean "not hot" and run the router too. */
const ANSWERED: Promise<void> = Promise.resolve();

/** A dispatcher that answers a hot route and returns its promise, or returns undefined for any other request. */
export function hotRoutes(router: Router, routes: readonly HotRoute[]): (ctx: Context) => Promise<void> | undefined {
  const hot = routes.map(({ method, path }) => {
    const layer: Layer | undefined = router.stack.find((candidate) => candidate.path === path && candidate.methods.includes(method));
    if (layer === undefined) throw new Error(`hot route ${method} ${path} is not a route of the router`);
    // One handler, so that no chain is composed per request.
    if (layer.stack.length !== 1) throw new Error(`hot route ${method} ${path} must be one handler, not ${layer.stack.length}`);
    return { method, path, layer, handler: layer.stack[0]! };
  });
  return (ctx) => {
    for (const { method, path, layer, handler } of hot) {
      if (ctx.method !== method) continue;
      const match = layer.regexp.exec(ctx.path);
      if (match === null) continue;
      // What the router sets for its routes, and all our code reads: the parameters and the pattern.
      (ctx as { params?: Record<string, string> }).params = layer.params(ctx.path, match.slice(1), {});
      (ctx as { _matchedRoute?: string })._matchedRoute = path;
      return (handler(ctx as never, noop) as Promise<void> | undefined) ?? ANSWERED;
    }
    return undefined;
  };
}
