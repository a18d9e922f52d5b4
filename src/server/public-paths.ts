/**
 * The paths answered without an API key: health, readiness, problem types and the console page with
 * its assets. The key check and the routes that serve them ask here, so a route cannot drift from
 * the list; everything else needs a key unless OPEN_ROUTES opens it (config.ts, OPENABLE_ROUTES).
 */

/** The console page's paths; its assets are under CONSOLE_ASSETS. */
export const CONSOLE_PATHS = ['/', '/console'];
export const CONSOLE_ASSETS = '/console/';

const PUBLIC_PATHS = new Set(['/healthz', '/readyz', ...CONSOLE_PATHS]);
const PUBLIC_PREFIXES = ['/problems/', CONSOLE_ASSETS];

/**
 * A `.` or `..` segment, written or percent-encoded, between slashes a proxy may decode (`%2f`, `\`)
 * or end at a `;` parameter: `/console/../apis/repos` or `/console/..%2fapis/repos` is an /apis/ path
 * to a proxy that normalises it.
 */
const DOT_SEGMENT = /(?:^|\/|%2f|\\)(?:\.|%2e){1,2}(?:\/|%2f|\\|;|$)/i;

export function isPublic(path: string): boolean {
  // Such a path is never public: it gets the key check (401 without a key) as every /apis/ path does.
  if (DOT_SEGMENT.test(path)) return false;
  return PUBLIC_PATHS.has(path) || PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix));
}
