/**
 * Hostile input against the running server, generated with fast-check: wrong types at every
 * position, huge and deep values, odd Unicode, prototype keys, placeholders in values, edge numbers,
 * broken JSON and odd headers. Every answer is a manifest or a 4xx problem+json; nothing else.
 * Then large requests, several at once, against the server as its own process, started as the
 * Deployment starts it: its peak memory stays under the Deployment's limit.
 * `npm run fuzz` runs 10,000 requests (FUZZ_RUNS) and 500 large ones; `npm test` a smaller sample.
 */
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLimits } from '../../src/server/config.js';
import { serverContainer } from '../helpers/deployment.js';
import { largeRequests } from '../helpers/large-requests.js';
import { memoryOf, spawnServer } from '../helpers/process.js';
import { ROOT } from '../helpers/repos.js';
import { BASE, KEY, startTestServer, type TestServer } from '../helpers/server.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
let server: TestServer;
/** The exec path of every loaded collection, the service first. */
let PATHS: string[];
beforeAll(async () => {
  server = await startTestServer();
  PATHS = server.state.registry.bundles
    .flatMap((loaded) =>
      [...loaded.collections.keys()].map((name) => `${BASE}/${loaded.bundle.repository.name}/v1/resources/collections/${name}/exec`),
    )
    .sort((a, b) => Number(b.endsWith('/service/exec')) - Number(a.endsWith('/service/exec')));
});
afterAll(() => server.close());

// Variables of every served collection, and the variable-shaped names that are none of them.
const VARIABLES = [
  '__SVC_ID__',
  '__ING_ID__',
  '__INGCLASS_ID__',
  '__EP_ID__',
  '__SC_ID__',
  '__PVC_ID__',
  '__PV_ID__',
  '__CM_ID__',
  '__SECRET_ID__',
  '__CRD_ID__',
  '__NOPE_ID__',
];
const hostileKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'valueOf',
    'hasOwnProperty',
    'metadata',
    'spec',
    'name',
    'ports',
    'data',
    '0',
    '',
    '~1/',
    '{{ __SVC_ID__.x }}',
  ),
  fc.string({ unit: 'binary', maxLength: 12 }),
);
const edgeNumber = fc.constantFrom(
  0,
  -0,
  1,
  -1,
  0.5,
  65535,
  65536,
  2 ** 31,
  -(2 ** 31) - 1,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  Number.MIN_VALUE,
  Number.MAX_VALUE,
  1e308,
  -1e-308,
);
const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('{{ __SVC_ID__.metadata }}', '{{', '}}', '\u0000', '\u202e', '\ud800', '\uffff', 'yes', 'null', '12:30', '<script>'),
  fc.integer({ min: 1000, max: 70_000 }).map((length) => 'x'.repeat(length)),
);
const leaf = fc.oneof(oddString, edgeNumber, fc.double(), fc.boolean(), fc.constant(null));
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 5 }),
  ),
})).value;
const nested = fc.integer({ min: 1, max: 120 }).map((depth) => {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { spec: value };
  return value;
});
const values = fc.oneof(
  json,
  fc.dictionary(
    hostileKey,
    fc.oneof(
      json,
      nested,
      fc.record({ metadata: fc.oneof(json, fc.record({ name: oddString })), spec: json, data: json }, { requiredKeys: [] }),
    ),
    { maxKeys: 4 },
  ),
  fc
    .array(fc.constant({ metadata: { name: 'x' } }), { minLength: 90, maxLength: 130 })
    .map((list) => Object.fromEntries(list.map((entry, index) => [`id${index}`, entry]))),
);
const body = fc.oneof(
  json,
  fc.record(
    {
      facets: fc.oneof(
        json,
        fc.array(
          fc.oneof(fc.constantFrom('master', 'addon:spec', 'addon:ports', 'addon:data', 'addon:rules', 'addon:tls'), oddString, edgeNumber),
          { maxLength: 6 },
        ),
      ),
      values,
      globalvars: fc.oneof(
        json,
        fc.dictionary(fc.oneof(fc.constantFrom(...VARIABLES), hostileKey), fc.oneof(hostileKey, json), { maxKeys: 3 }),
      ),
    },
    { requiredKeys: [] },
  ),
);
/** A valid service request with one hostile value planted somewhere in it. */
const plantedService = fc
  .tuple(
    fc.constantFrom(
      'metadata',
      'metadata.name',
      'metadata.labels',
      'spec',
      'spec.selector',
      'spec.ports',
      'spec.ports.0',
      'spec.ports.0.port',
      'spec.type',
      'spec.externalIPs',
    ),
    json,
  )
  .map(([at, planted]) => {
    const input: Record<string, any> = {
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }], type: 'ClusterIP' },
    };
    const path = at.split('.');
    let node = input;
    for (const segment of path.slice(0, -1)) node = node[segment];
    node[path.at(-1)!] = planted;
    return { facets: ['addon:spec'], values: { web: input }, globalvars: { __SVC_ID__: 'web' } };
  });
/** Batch bodies: resources of every shape, sharing hostile values. */
const batchText = fc
  .record({
    resources: fc.oneof(
      json,
      fc.array(
        fc.oneof(
          json,
          fc.record(
            {
              repository: fc.oneof(
                fc.constantFrom('service-resources', 'config-and-storage-resources', 'extend-resources', 'nope'),
                oddString,
              ),
              collection: fc.oneof(
                fc.constantFrom('service', 'ingress', 'configmap', 'secret', 'persistent-volume', 'ingressclass', 'nope'),
                oddString,
              ),
              facets: fc.oneof(
                json,
                fc.array(fc.constantFrom('master', 'addon:spec', 'addon:data', 'addon:ports', 'addon:x'), { maxLength: 3 }),
              ),
              apiVersion: fc.oneof(fc.constantFrom('v1', 'v2'), oddString),
              release: fc.oneof(fc.constantFrom('1.0.0', '1.1.0', '9.9.9'), oddString),
            },
            { requiredKeys: [] },
          ),
        ),
        { maxLength: 6 },
      ),
    ),
    values,
    globalvars: fc.oneof(json, fc.dictionary(fc.constantFrom(...VARIABLES), hostileKey, { maxKeys: 4 })),
  })
  .map((body) => JSON.stringify(body));

const text = fc.oneof(
  { weight: 6, arbitrary: body.map((value) => JSON.stringify(value) ?? 'null') },
  { weight: 4, arbitrary: plantedService.map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: body.map((value) => (JSON.stringify(value) ?? '').slice(0, -1)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  { weight: 1, arbitrary: fc.integer({ min: 60, max: 200 }).map((depth) => `{"values":${'['.repeat(depth)}${']'.repeat(depth)}}`) },
);
// Mostly well-formed around the body, so that the body reaches validation and render.
const query = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('', '?format=yaml', '?format=json', '?strict=true', '?release=1.0.0') },
  { weight: 1, arbitrary: fc.constantFrom('?format=xml', '?strict=maybe', '?format=yaml&format=json', '?release=0.0.1', '?%ZZ=1') },
);
const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') },
  { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/json; charset=latin1', '', 'application/merge-patch+json') },
);

describe('hostile input against the running server', () => {
  it(`answers ${RUNS} generated requests, single and batch, with a manifest or a 4xx problem+json, and leaves Object.prototype alone`, async () => {
    const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
    const counts = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constant(PATHS[0]!), fc.constantFrom(...PATHS)),
        query,
        contentType,
        fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: batchText }),
        async (path, search, type, payload) => {
          // Batch bodies go to the batch route.
          if (payload.startsWith('{"resources"')) path = `${BASE}/exec`;
          const headers: Record<string, string> = { 'X-APIKEY': KEY };
          if (type !== '') headers['Content-Type'] = type;
          const response = await fetch(server.url + path + search, {
            method: 'POST',
            headers,
            body: payload,
            signal: AbortSignal.timeout(10_000),
          });
          counts.set(response.status, (counts.get(response.status) ?? 0) + 1);
          const bodyText = await response.text();
          if (response.status === 200) {
            expect(response.headers.get('content-type')).toMatch(/^application\/(json|yaml)/);
          } else {
            expect(response.status).toBeGreaterThanOrEqual(400);
            expect(response.status).toBeLessThan(500);
            expect(response.headers.get('content-type')).toBe('application/problem+json');
            const problem = JSON.parse(bodyText);
            expect(problem.status).toBe(response.status);
            expect(typeof problem.detail).toBe('string');
          }
        },
      ),
      { numRuns: RUNS },
    );
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await server.request('/healthz')).status).toBe(200);
    process.stdout.write(`hostile requests: ${RUNS}; answers by status: ${JSON.stringify(Object.fromEntries([...counts].sort()))}\n`);
  }, 600_000);

  it('sends no X-Powered-By and marks answers nosniff', async () => {
    const response = await server.request(PATHS[0]!, { method: 'POST', json: { values: { w: { metadata: { name: 'w' } } } } });
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('large requests against the server process', () => {
  const runs = Math.max(20, Math.round(RUNS / 20));
  const container = serverContainer();
  // What the Deployment sets that bears on memory: the heap (NODE_OPTIONS), limits, timeouts, workers.
  const deployed = Object.fromEntries(
    Object.entries(container.env).filter(([name]) => /^(NODE_OPTIONS|WORKERS|MAX_\w+|\w+_TIMEOUT_MS)$/.test(name)),
  );
  const keys = ['large-key-0123456789-a', 'large-key-0123456789-b', 'large-key-0123456789-c'];
  const MiB = 1024 * 1024;

  it(`answers ${runs} large requests, several at once, without a 5xx, its peak memory under the Deployment's limit`, async () => {
    // A rate limit no client here reaches: what holds under more load holds under the default.
    const server = await spawnServer({
      ...deployed,
      API_KEYS: keys.join(','),
      BUNDLES_DIR: path.join(ROOT, 'dist'),
      RATE_LIMIT: '1000000/min',
      LOG_LEVEL: 'warn',
    });
    const { hostname, port } = new URL(server.url);
    let polledRss = 0;
    const poll = setInterval(() => (polledRss = Math.max(polledRss, memoryOf(server.child.pid!).rss)), 25);
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
    const requests = fc.sample(largeRequests(readLimits(deployed)), { numRuns: runs, seed });
    const counts = new Map<string, number>();
    const held: Socket[] = [];
    let peak = 0;
    try {
      // Clients that hold memory meanwhile: uploads whose body never comes, answers never read.
      for (let index = 0; index < 8; index++) {
        const socket = connect(Number(port), hostname, () => {
          const request = requests[index % requests.length]!;
          const body = index % 2 === 0 ? '{"values":' : request.body();
          socket.write(
            `POST ${request.path} HTTP/1.1\r\nHost: fuzz\r\nX-APIKEY: ${keys[index % keys.length]}\r\nContent-Type: application/json\r\nContent-Length: ${index % 2 === 0 ? MiB : Buffer.byteLength(body)}\r\n\r\n${body}`,
          );
          socket.pause();
        });
        socket.on('error', () => {});
        held.push(socket);
      }
      let next = 0;
      const worker = async (key: string) => {
        for (let index = next++; index < requests.length; index = next++) {
          const request = requests[index]!;
          const response = await fetch(server.url + request.path, {
            method: 'POST',
            headers: { 'X-APIKEY': key, 'Content-Type': 'application/json' },
            body: request.body(),
            signal: AbortSignal.timeout(60_000),
          });
          const text = await response.text();
          const label = `${request.pattern} ${response.status}`;
          counts.set(label, (counts.get(label) ?? 0) + 1);
          if (response.status !== 200) expect(JSON.parse(text).status, `${request.pattern}: ${text.slice(0, 300)}`).toBe(response.status);
        }
      };
      await Promise.all(Array.from({ length: 6 }, (_, index) => worker(keys[index % keys.length]!)));
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      clearInterval(poll);
      for (const socket of held) socket.destroy();
      peak = memoryOf(server.child.pid!).peak;
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
    const statuses = [...counts.keys()].map((label) => Number(label.split(' ').at(-1)));
    process.stdout.write(
      `large requests: ${runs} (seed ${seed}); answers: ${JSON.stringify(Object.fromEntries([...counts].sort()))}\n` +
        `peak RSS of the server: ${(peak / MiB).toFixed(0)} MiB (polled ${(polledRss / MiB).toFixed(0)} MiB) of the Deployment's ${(container.memoryLimitBytes / MiB).toFixed(0)} MiB, with ${JSON.stringify(deployed)}\n`,
    );
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(peak).toBeLessThan(container.memoryLimitBytes);
  }, 600_000);
});
