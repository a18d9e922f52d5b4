/**
 * Hostile input against the running server, generated with fast-check: wrong types at every
 * position, huge and deep values, odd Unicode, prototype keys, placeholders in values, edge numbers,
 * broken JSON and odd headers. Every answer is a manifest or a 4xx problem+json; nothing else.
 * `npm run fuzz` runs 10,000 requests (FUZZ_RUNS); `npm test` a smaller sample.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, KEY, startTestServer, type TestServer } from '../helpers/server.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
let server: TestServer;
/** The exec path of every loaded collection, the service first. */
let PATHS: string[];
beforeAll(async () => {
  server = await startTestServer();
  PATHS = server.state.registry.bundles
    .flatMap((loaded) => [...loaded.collections.keys()].map((name) => `${BASE}/${loaded.bundle.repository.name}/v1/resources/collections/${name}/exec`))
    .sort((a, b) => Number(b.endsWith('/service/exec')) - Number(a.endsWith('/service/exec')));
});
afterAll(() => server.close());

// Variables of every served collection, and the variable-shaped names that are none of them.
const VARIABLES = ['__SVC_ID__', '__ING_ID__', '__INGCLASS_ID__', '__EP_ID__', '__SC_ID__', '__PVC_ID__', '__PV_ID__', '__CM_ID__', '__SECRET_ID__', '__CRD_ID__', '__NOPE_ID__'];
const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'metadata', 'spec', 'name', 'ports', 'data', '0', '', '~1/', '{{ __SVC_ID__.x }}'),
  fc.string({ unit: 'binary', maxLength: 12 }),
);
const edgeNumber = fc.constantFrom(0, -0, 1, -1, 0.5, 65535, 65536, 2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, Number.MIN_VALUE, Number.MAX_VALUE, 1e308, -1e-308);
const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('{{ __SVC_ID__.metadata }}', '{{', '}}', '\u0000', '\u202e', '\ud800', '\uffff', 'yes', 'null', '12:30', '<script>'),
  fc.integer({ min: 1000, max: 70_000 }).map((length) => 'x'.repeat(length)),
);
const leaf = fc.oneof(oddString, edgeNumber, fc.double(), fc.boolean(), fc.constant(null));
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('value'), { maxLength: 5 }), fc.dictionary(hostileKey, tie('value'), { maxKeys: 5 })),
})).value;
const nested = fc.integer({ min: 1, max: 120 }).map((depth) => {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { spec: value };
  return value;
});
const values = fc.oneof(
  json,
  fc.dictionary(hostileKey, fc.oneof(json, nested, fc.record({ metadata: fc.oneof(json, fc.record({ name: oddString })), spec: json, data: json }, { requiredKeys: [] })), { maxKeys: 4 }),
  fc.array(fc.constant({ metadata: { name: 'x' } }), { minLength: 90, maxLength: 130 }).map((list) => Object.fromEntries(list.map((entry, index) => [`id${index}`, entry]))),
);
const body = fc.oneof(
  json,
  fc.record(
    {
      facets: fc.oneof(json, fc.array(fc.oneof(fc.constantFrom('master', 'addon:spec', 'addon:ports', 'addon:data', 'addon:rules', 'addon:tls'), oddString, edgeNumber), { maxLength: 6 })),
      values,
      globalvars: fc.oneof(json, fc.dictionary(fc.oneof(fc.constantFrom(...VARIABLES), hostileKey), fc.oneof(hostileKey, json), { maxKeys: 3 })),
    },
    { requiredKeys: [] },
  ),
);
/** A valid service request with one hostile value planted somewhere in it. */
const plantedService = fc.tuple(fc.constantFrom('metadata', 'metadata.name', 'metadata.labels', 'spec', 'spec.selector', 'spec.ports', 'spec.ports.0', 'spec.ports.0.port', 'spec.type', 'spec.externalIPs'), json).map(([at, planted]) => {
  const input: Record<string, any> = { metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }], type: 'ClusterIP' } };
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
              repository: fc.oneof(fc.constantFrom('service-resources', 'config-and-storage-resources', 'extend-resources', 'nope'), oddString),
              collection: fc.oneof(fc.constantFrom('service', 'ingress', 'configmap', 'secret', 'persistent-volume', 'ingressclass', 'nope'), oddString),
              facets: fc.oneof(json, fc.array(fc.constantFrom('master', 'addon:spec', 'addon:data', 'addon:ports', 'addon:x'), { maxLength: 3 })),
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
      fc.asyncProperty(fc.oneof(fc.constant(PATHS[0]!), fc.constantFrom(...PATHS)), query, contentType, fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: batchText }), async (path, search, type, payload) => {
        // Batch bodies go to the batch route.
        if (payload.startsWith('{"resources"')) path = `${BASE}/exec`;
        const headers: Record<string, string> = { 'X-APIKEY': KEY };
        if (type !== '') headers['Content-Type'] = type;
        const response = await fetch(server.url + path + search, { method: 'POST', headers, body: payload, signal: AbortSignal.timeout(10_000) });
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
      }),
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
