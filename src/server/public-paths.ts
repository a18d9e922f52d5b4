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

export function isPublic(path: string): boolean {
  return PUBLIC_PATHS.has(path) || PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix));
}
