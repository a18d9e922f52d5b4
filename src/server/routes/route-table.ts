/**
 * Every route of the API, the only place each is written: its method and path, the query
 * parameters it takes, and who may call it. Routes register from here, the key check asks here
 * (public-paths.ts), OPEN_ROUTES takes its names from here, and test/route-table.test.ts holds the
 * OpenAPI document (openapi/) to it.
 */

/** No key (`public`), a key unless OPEN_ROUTES names it (`openable`), or a key. */
export type Access = 'key' | 'public' | { openable: string };

export interface Route {
  method: 'GET' | 'POST';
  /** In the router's syntax: `:name` a segment, `*name` the rest. */
  path: string;
  /** The query parameters it takes (any other is a 400), or `any` for a probe or scraper, which is never refused for one. */
  query: readonly string[] | 'any';
  access: Access;
  /** In the OpenAPI document, unless it is a page, an asset or the preview's alone. */
  documented: boolean;
}
import { EVENTS_PATH } from '../preview-status.js';

const COLLECTIONS = '/apis/repos/:vendor/:repository/:apiVersion/resources/collections';
const COLLECTION = `${COLLECTIONS}/:collection`;
const RELEASE = ['release'] as const;
const ANSWER = ['format', 'strict'] as const;

const get = (path: string, query: Route['query'], access: Access = 'key', documented = true): Route => ({
  method: 'GET',
  path,
  query,
  access,
  documented,
});

export const ROUTES = {
  health: get('/healthz', 'any', 'public'),
  ready: get('/readyz', 'any', 'public'),
  metrics: get('/metrics', 'any', { openable: 'metrics' }),
  openapi: get('/openapi.json', 'any', { openable: 'openapi' }),
  problemType: get('/problems/:type', 'any', 'public'),
  schemaFile: get('/schemas/*path', [], { openable: 'schemas' }),
  vendors: get('/apis/repos', []),
  vendor: get('/apis/repos/:vendor', []),
  repository: get(COLLECTIONS, RELEASE),
  collection: get(COLLECTION, RELEASE),
  types: get(`${COLLECTION}/types`, RELEASE),
  schema: get(`${COLLECTION}/schema`, RELEASE),
  exec: { method: 'POST', path: `${COLLECTION}/exec`, query: [...ANSWER, 'release'], access: 'key', documented: true },
  batch: { method: 'POST', path: '/apis/repos/:vendor/exec', query: ANSWER, access: 'key', documented: true },
  // A page and its assets, as a browser asks for them: a query is not refused.
  consolePage: get('/', 'any', 'public', false),
  console: get('/console', 'any', 'public', false),
  consoleAsset: get('/console/*asset', 'any', 'public', false),
  previewEvents: get(EVENTS_PATH, [], 'key', false),
} as const satisfies Record<string, Route>;

/** The query parameters a route takes, for a route that checks them. */
export const queryOf = (route: Route): readonly string[] => (route.query === 'any' ? [] : route.query);

/** The literal start of a path: all of it, or what comes before its first parameter. */
export function literalPrefix(path: string): { prefix: string; whole: boolean } {
  const at = path.search(/[:*]/);
  return at === -1 ? { prefix: path, whole: true } : { prefix: path.slice(0, at), whole: false };
}

/** The routes OPEN_ROUTES may open, by name: each one's path, or the prefix of the paths under it. */
export const OPENABLE_ROUTES: Record<string, string> = Object.fromEntries(
  Object.values(ROUTES as Record<string, Route>).flatMap((route) =>
    typeof route.access === 'object' ? [[route.access.openable, literalPrefix(route.path).prefix]] : [],
  ),
);

/** A route's path as the OpenAPI document writes it: `{name}` for `:name`. */
export const openApiPath = (path: string): string => path.replace(/:([A-Za-z]+)/g, '{$1}');
