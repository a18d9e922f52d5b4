/** The real server, in process, on an ephemeral port, with its log lines captured. */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { loadBundles } from '../../src/bundle/load.js';
import { BundleRegistry } from '../../src/bundle/registry.js';
import { ApiKeys } from '../../src/server/api-keys.js';
import { parseRateLimit, type ServerTimeouts } from '../../src/server/config.js';
import { createState, startServer, type RunningServer, type StateOptions } from '../../src/server/server.js';
import { buildInto } from './build.js';
import { SHIPPED_REPOS, tempDir } from './repos.js';

export const KEY = 'test-key-0123456789';
export const BASE = '/apis/repos/facetform';
export const execPath = (repository: string, collection: string) => `${BASE}/${repository}/v1/resources/collections/${collection}/exec`;

let shippedDist: Promise<string> | undefined;
/** The shipped repositories, built once per test worker and shared by its files: no test writes into it. */
export function shippedBundles(): Promise<string> {
  shippedDist ??= buildInto(SHIPPED_REPOS, tempDir('facetform-dist-', 'run'));
  return shippedDist;
}

export interface TestServer extends RunningServer {
  logs: Array<Record<string, unknown>>;
  /** fetch against the server with the test key unless headers say otherwise. */
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
}

export async function startTestServer(
  options: { keys?: ApiKeys; dist?: string; state?: StateOptions; timeouts?: ServerTimeouts } = {},
): Promise<TestServer> {
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      callback();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const registry = new BundleRegistry(loadBundles(options.dist ?? (await shippedBundles())));
  const state = createState(registry, options.keys ?? ApiKeys.fromPlainKeys([KEY]), logger, {
    rateLimit: parseRateLimit('100000/s'),
    ...options.state,
  });
  const running = await startServer(state, 0, '127.0.0.1', options.timeouts);
  return {
    ...running,
    logs,
    // A test has its answers before it closes: no need to wait out the second a production drain gives idle sockets.
    close: (timeoutMs = 100) => running.close(timeoutMs),
    request(path, init = {}) {
      const { json, headers, ...rest } = init;
      const merged = new Headers(headers);
      if (!merged.has('X-APIKEY')) merged.set('X-APIKEY', KEY);
      if (json !== undefined && !merged.has('Content-Type')) merged.set('Content-Type', 'application/json');
      return fetch(running.url + path, { ...rest, headers: merged, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
  };
}

/** Reads a problem+json answer and checks its RFC 9457 members. */
export async function problemOf(response: Response): Promise<{
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: Array<{ pointer: string; detail: string }>;
  [k: string]: unknown;
}> {
  if (response.headers.get('content-type') !== 'application/problem+json')
    throw new Error(`not problem+json: ${response.status} ${response.headers.get('content-type')}`);
  const body = (await response.json()) as any;
  for (const member of ['type', 'title', 'status', 'detail']) if (!(member in body)) throw new Error(`problem lacks ${member}`);
  if (body.status !== response.status) throw new Error('problem status differs from the HTTP status');
  return body;
}
