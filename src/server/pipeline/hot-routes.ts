/**
 * The routes that carry the traffic (exec, /healthz) are tried before the router, one precompiled
 * test each: @koa/router tests every route and composes a new chain for each request, which cost
 * exec more than its render. The test is path-to-regexp's public `match`, the matcher the
 * router compiles its own routes with, given the router's options in its words; before, the router's
 * private layers were read, which a router release could change without a word. A second router of
 * the hot routes alone was measured too: through its public routes() it cost exec about 10 µs of
 * CPU more per request, and /healthz a quarter more. The routes stay registered in the router,
 * which answers their other methods (405) and lists them.
 */
import { METHODS } from 'node:http';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { match, type MatchFunction } from 'path-to-regexp';

/** The router's own decoding of a parameter: a malformed escape stays as it was sent. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Case-sensitive and strict, so that /Apis/… or /healthz/ is not a second name for a route. Every
 * method Node parses is one the router knows, so that allowedMethods answers a PROPFIND on a path
 * that exists with 405 and the methods it takes, rather than 501.
 */
const ROUTER_OPTIONS = { sensitive: true, strict: true, methods: [...METHODS] };
/** The same, as path-to-regexp says it (the router turns `strict` into `trailing: false`). */
const MATCH_OPTIONS = { sensitive: true, trailing: false, decode };

interface HotRoute {
  method: string;
  path: string;
  matches: MatchFunction<Record<string, string>>;
  handler: Middleware;
}

export interface Routers {
  /** Every route. */
  router: Router;
  /** The routes of the traffic, tried first. */
  hot: HotRoute[];
}

export const createRouters = (): Routers => ({ router: new Router(ROUTER_OPTIONS), hot: [] });

/** Registers a route of the traffic: answered before the router, which answers its other methods. */
export function hotRoute(routers: Routers, method: 'get' | 'post', path: string, handler: Middleware): void {
  routers.router[method](path, handler);
  routers.hot.push({ method: method.toUpperCase(), path, matches: match(path, MATCH_OPTIONS), handler });
}

/** The `next` of a route that is last in its chain. */
export const noop = async () => {};
/** What a hot route whose handler answers synchronously (/healthz) gives back. */
const ANSWERED: Promise<void> = Promise.resolve();

/** Routes a request: a hot route, else the router, else `unrouted` (which answers 404, 405 or 501). */
export function dispatcher({ router, hot }: Routers, unrouted: (ctx: Context) => Promise<void>): (ctx: Context) => Promise<void> {
  const routes = router.routes();
  return (ctx) => {
    for (const { method, path, matches, handler } of hot) {
      if (ctx.method !== method) continue;
      const matched = matches(ctx.path);
      if (matched === false) continue;
      // What the router sets for its routes, and all our code reads: the parameters and the pattern.
      (ctx as { params?: Record<string, string> }).params = { ...matched.params };
      (ctx as { _matchedRoute?: string })._matchedRoute = path;
      return (handler(ctx, noop) as Promise<void> | undefined) ?? ANSWERED;
    }
    return routes(ctx as never, () => unrouted(ctx)) as Promise<void>;
  };
}
