/** Rate limits per key, request limits and server timeouts, over real HTTP. */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiKeys } from '../../src/server/api-keys.js';
import { parseRateLimit } from '../../src/server/config.js';
import { LocalBuckets } from '../../src/server/rate-limit/token-bucket.js';
import { collectionOfKind } from '../helpers/repos.js';
import { execPath, problemOf, startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const service = collectionOfKind('Service');
const SERVICE = execPath(service.repository, service.collection);
// A request the API server takes (a ClusterIP Service with its ports): the seed of the Service collection.
const BODY = service.seed;

describe('rate limits', () => {
  it('answer every keyed request with its budget, and 429 with Retry-After past it', async () => {
    server = await startTestServer({ state: { rateLimit: parseRateLimit('3/min') } });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let index = 0; index < 4; index++) {
      last = await server.request(SERVICE, { method: 'POST', json: BODY });
      statuses.push(last.status);
      if (index === 0) {
        expect(structuredItem(last.headers.get('ratelimit-policy'))).toEqual({ policy: 'key', q: 3, w: 60 });
        const { policy, r, t } = structuredItem(last.headers.get('ratelimit'));
        expect({ policy, r }).toEqual({ policy: 'key', r: 2 });
        expect(t).toBeGreaterThan(0);
        expect(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].filter((name) => last!.headers.has(name))).toEqual([]);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.headers.get('retry-after')).toBe('20');
    expect(structuredItem(last!.headers.get('ratelimit')).r).toBe(0);
    expect(await problemOf(last!)).toMatchObject({
      type: '/problems/too-many-requests',
      status: 429,
      detail: 'this key may send 3/min; retry after 20 s',
    });
  });

  it('keep one budget per key, and none for the public routes', async () => {
    server = await startTestServer({
      keys: ApiKeys.fromPlainKeys(['first-key-1234', 'second-key-5678']),
      state: { rateLimit: parseRateLimit('1/hour') },
    });
    const as = (key: string) => server!.request(SERVICE, { method: 'POST', json: BODY, headers: { 'X-APIKEY': key } });
    expect((await as('first-key-1234')).status).toBe(200);
    expect((await as('first-key-1234')).status).toBe(429);
    expect((await as('second-key-5678')).status).toBe(200);
    for (let index = 0; index < 5; index++) expect((await server.request('/healthz')).status).toBe(200);
  });

  it('refill evenly over the period', () => {
    const buckets = new LocalBuckets(parseRateLimit('2/s'));
    expect(buckets.take('k', 0).allowed).toBe(true);
    expect(buckets.take('k', 0).allowed).toBe(true);
    expect(buckets.take('k', 0)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    expect(buckets.take('k', 500).allowed).toBe(true);
    expect(buckets.take('k', 500).allowed).toBe(false);
    expect(buckets.take('k', 5000)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('read RATE_LIMIT as N per second, minute or hour', () => {
    expect(parseRateLimit('600/min')).toEqual({ limit: 600, periodMs: 60_000, text: '600/min' });
    expect(parseRateLimit('5/s').periodMs).toBe(1000);
    expect(() => parseRateLimit('lots')).toThrow('RATE_LIMIT: "lots" is not of the form N/sec, N/min or N/hour');
  });
});

describe('request limits', () => {
  it('cap the number of values entries and the length of strings, naming each breach', async () => {
    server = await startTestServer({ state: { limits: { maxValuesEntries: 3, maxStringLength: 100, maxItems: 20, maxResources: 50 } } });
    const values = Object.fromEntries(['a', 'b', 'c', 'd'].map((id) => [id, { metadata: { name: id } }]));
    const many = await problemOf(await server.request(SERVICE, { method: 'POST', json: { values, globalvars: { __SVC_ID__: 'a' } } }));
    expect(many).toMatchObject({
      status: 422,
      title: 'Request over limits',
      errors: [{ pointer: '/values', detail: 'has 4 entries; at most 3' }],
    });
    const long = await problemOf(
      await server.request(SERVICE, {
        method: 'POST',
        json: { values: { w: { metadata: { name: 'x'.repeat(101), ['k'.repeat(150)]: 1 } } } },
      }),
    );
    expect(long.errors!.map((error) => error.detail).sort()).toEqual([
      'is 101 characters long; at most 100',
      'is a member name 150 characters long; at most 100',
    ]);
  });

  it('cap the items of any one array and the members of any one object, so that reporting every problem stays cheap', async () => {
    server = await startTestServer({ state: { limits: { maxValuesEntries: 3, maxStringLength: 100, maxItems: 20, maxResources: 50 } } });
    const ports = Array.from({ length: 21 }, () => ({ port: 1, targetPort: true }));
    const labels = Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`l${index}`, 'x']));
    const problem = await problemOf(
      await server.request(SERVICE, {
        method: 'POST',
        json: { facets: ['addon:ports'], values: { w: { metadata: { name: 'w', labels }, spec: { ports } } } },
      }),
    );
    expect(problem).toMatchObject({ status: 422, title: 'Request over limits' });
    expect(problem.errors!.sort((a, b) => a.pointer.localeCompare(b.pointer))).toEqual([
      { pointer: '/values/w/metadata/labels', detail: 'has 21 members; at most 20' },
      { pointer: '/values/w/spec/ports', detail: 'has 21 items; at most 20' },
    ]);
  });
  it('stop a batch whose checks pass MAX_CHECK_MS before the next resource, naming where to split it', async () => {
    // A millisecond: a Service of 200 named ports takes more than that to check on any machine, so the
    // budget is spent after the first resource whatever the load, and the second is where the batch stops.
    server = await startTestServer({
      state: { limits: { maxValuesEntries: 3, maxStringLength: 100, maxItems: 1000, maxResources: 50, maxCheckMs: 1 } },
    });
    const ports = Array.from({ length: 200 }, (_, index) => ({ name: `p${index}`, port: 1000 + index }));
    const resources = Array.from({ length: 10 }, () => ({
      repository: service.repository,
      collection: service.collection,
      facets: ['addon:ports'],
    }));
    const body = { resources, values: { w: { metadata: { name: 'w' }, spec: { ports } } } };
    const problem = await problemOf(await server.request('/apis/repos/facetform/exec', { method: 'POST', json: body }));
    expect(problem).toMatchObject({ status: 422, title: 'Request over limits' });
    expect(problem.errors).toHaveLength(1);
    expect(problem.errors![0]!.pointer).toBe('/resources/1');
    expect(problem.errors![0]!.detail).toMatch(
      /^not checked: the resources before it took \d+ ms, and the checks of one request may take at most 1 ms; split the batch here$/,
    );
  });
});

describe('server timeouts', () => {
  it('close a connection whose headers do not arrive in time, with a 408', async () => {
    server = await startTestServer({ timeouts: { headersMs: 300, requestMs: 600, keepAliveMs: 1000, stallMs: 10_000 } });
    const url = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write('POST /healthz HTTP/1.1\r\nHost: x\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    expect(answer).toContain('application/problem+json');
  });
});

/** One RFC 8941 list item of draft-ietf-httpapi-ratelimit-headers: a string naming the policy, with integer parameters. */
function structuredItem(field: string | null): { policy: string; [parameter: string]: string | number } {
  const match = /^"([^"\\]*)"((?:;[a-z][a-z0-9_.*-]*=\d{1,15})*)$/.exec(field ?? '');
  if (match === null) throw new Error(`not one structured item with integer parameters: ${field}`);
  const parameters = match[2]!
    .split(';')
    .slice(1)
    .map((pair) => pair.split('=') as [string, string]);
  return { policy: match[1]!, ...Object.fromEntries(parameters.map(([name, value]) => [name, Number(value)])) };
}
