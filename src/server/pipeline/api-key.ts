/**
 * X-APIKEY on every route but the few public ones (public-paths.ts: health, readiness, problem
 * types, the console page) and the operations routes an operator opened (OPEN_ROUTES: metrics, the
 * OpenAPI document, the editor schemas, which tell an outsider the traffic and every schema). Deny by
 * default: a route added later is protected unless public-paths.ts names it. A missing and a wrong
 * key get the same answer, whose WWW-Authenticate challenge (RFC 9110 §11.6.1) names the header a
 * key goes in.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { HttpProblem } from '../problem.js';
import type { ServerState } from '../state.js';
import { hasDotSegment } from '../public-paths.js';

export const API_KEY_HEADER = 'X-APIKEY';
/**
 * No registered scheme carries a key in a header of its own; `ApiKey` is the name OpenAPI tools use.
 * The same key is taken as a Bearer token (RFC 6750) from tools that send only `Authorization`,
 * such as Prometheus.
 */
export const API_KEY_CHALLENGE = `ApiKey realm="facetform", header="${API_KEY_HEADER}", Bearer realm="facetform"`;

const BEARER = /^Bearer +(\S+) *$/i;

/** The key a request presents: X-APIKEY, or else an Authorization Bearer token; '' for none. */
function presentedKey(headers: IncomingHttpHeaders): string {
  const key = headers['x-apikey'];
  if (typeof key === 'string' && key !== '') return key;
  const authorization = headers.authorization;
  return authorization === undefined || authorization === '' ? '' : (BEARER.exec(authorization)?.[1] ?? '');
}

/** An opened path, or a path under an opened prefix (OPENABLE_ROUTES). */
function isOpened(openPaths: ReadonlySet<string>, path: string): boolean {
  if (hasDotSegment(path)) return false;
  if (openPaths.has(path)) return true;
  for (const open of openPaths) if (open.endsWith('/') && path.startsWith(open)) return true;
  return false;
}

/** The name of the key the request presents, undefined when the path needs none; throws the 401. */
export function checkApiKey(state: ServerState, headers: IncomingHttpHeaders, path: string, publicPath: boolean): string | undefined {
  // `facetform dev` on a loopback address with no key configured answers everyone on this machine.
  if (publicPath || state.preview?.keyless === true || isOpened(state.openPaths, path)) return undefined;
  const presented = presentedKey(headers);
  const name = presented === '' ? undefined : state.keys.identify(presented);
  if (name === undefined) {
    throw new HttpProblem(
      'unauthorized',
      `send a valid API key in the ${API_KEY_HEADER} header (or as Authorization: Bearer)`,
      {},
      { 'WWW-Authenticate': API_KEY_CHALLENGE },
    );
  }
  return name;
}
