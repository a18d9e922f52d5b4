/**
 * The paths answered without an API key: the public routes of the route table (health, readiness,
 * problem types, the console page with its assets), a path each or the paths under a prefix.
 * Everything else needs a key unless OPEN_ROUTES opens it (route-table.ts, OPENABLE_ROUTES).
 */
import { literalPrefix, type Route, ROUTES } from './routes/route-table.js';

/** The console page's paths; its assets are under CONSOLE_ASSETS. */
export const CONSOLE_PATHS = [ROUTES.consolePage.path, ROUTES.console.path];
export const CONSOLE_ASSETS = literalPrefix(ROUTES.consoleAsset.path).prefix;

const PUBLIC = Object.values(ROUTES as Record<string, Route>)
  .filter((route) => route.access === 'public')
  .map((route) => literalPrefix(route.path));
const PUBLIC_PATHS = new Set(PUBLIC.filter((path) => path.whole).map((path) => path.prefix));
const PUBLIC_PREFIXES = PUBLIC.filter((path) => !path.whole).map((path) => path.prefix);

/**
 * A `.` or `..` segment, written or percent-encoded, between slashes a proxy may decode (`%2f`, `\`)
 * or end at a `;` parameter: `/console/../apis/repos` or `/console/..%2fapis/repos` is an /apis/ path
 * to a proxy that normalises it.
 */
const DOT_SEGMENT = /(?:^|\/|%2f|\\)(?:\.|%2e){1,2}(?:\/|%2f|\\|;|$)/i;

/** Whether a path has a `.` or `..` segment: such a path is never public nor opened, so it gets the key check (401 without a key) as every /apis/ path does. */
export const hasDotSegment = (path: string): boolean => DOT_SEGMENT.test(path);

export function isPublic(path: string): boolean {
  if (hasDotSegment(path)) return false;
  return PUBLIC_PATHS.has(path) || PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix));
}
