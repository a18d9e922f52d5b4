/** Every error status of CONTRACT §7 answers with its problem+json body. */
import { request as httpRequest } from 'node:http';
import { MALFORMED_JSON } from '../helpers/malformed-json.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLimits } from '../../src/server/config.js';
import { collectionOfKind, repositoriesIn } from '../helpers/repos.js';
import { BASE, execPath, KEY, problemOf, startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

// A request the API server takes (a ClusterIP Service needs its ports): the Service collection's seed, from repos/.
const SEED = collectionOfKind('Service');
const SERVICE = execPath(SEED.repository, SEED.collection);
const SEED_ID = SEED.seed.globalvars![SEED.variable]!;
/** The seed with its values entry changed by `change`. */
const seedWith = (change: (entry: Record<string, any>) => Record<string, any>) => ({
  ...SEED.seed,
  values: { ...SEED.seed.values, [SEED_ID]: change(structuredClone(SEED.seed.values[SEED_ID])) },
});
const post = (body: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }) =>
  server.request(SERVICE, { method: 'POST', body, headers });

describe('error answers', () => {
  it('400 for malformed JSON, saying where without quoting the body', async () => {
    const problem = await problemOf(await post('{\n  "values": {\n    "web": { "metadata" "secret-value" }\n  }\n}'));
    expect(problem).toMatchObject({
      type: '/problems/bad-request',
      title: 'Malformed JSON',
      status: 400,
      detail: 'the body is not valid JSON at line 3, column 25: a ":" belongs between a member name and its value',
    });
    expect(JSON.stringify(problem)).not.toContain('secret-value');
    expect((await problemOf(await post(''))).detail).toBe('the body is not valid JSON: the body is empty');
  });

  // Node 20's "Unexpected token" messages carry no position: each cause is found in the text, at its first offending character.
  it.each(MALFORMED_JSON)('400 for %s, with its cause, line and column', async (_, body, where) => {
    expect(await problemOf(await post(body))).toMatchObject({
      status: 400,
      title: 'Malformed JSON',
      detail: `the body is not valid JSON ${where}`,
    });
  });

  it('400 for nesting deeper than 64 levels, and none for 64', async () => {
    // The body, values and the entry are three levels; x's arrays are the rest.
    const arrays = (count: number): unknown[] => (count === 1 ? [] : [arrays(count - 1)]);
    const nest = (depth: number) => JSON.stringify(seedWith((entry) => ({ ...entry, x: arrays(depth - 3) })));
    expect(await (await post(nest(64))).status).toBe(200);
    const problem = await problemOf(await post(nest(65)));
    expect(problem).toMatchObject({ status: 400, detail: 'the JSON body nests deeper than 64 levels' });
    expect((await problemOf(await post('['.repeat(500_000)))).status).toBe(400);
  });

  it('400 for a body that is empty, not UTF-8, or holds a number too large to represent', async () => {
    expect((await problemOf(await post('', { 'Content-Type': 'application/json; charset=utf-8' }))).detail).toBe(
      'the body is not valid JSON: the body is empty',
    );
    const latin1 = Buffer.concat([Buffer.from('{"values":{"w":{"metadata":{"name":"'), Buffer.from([0xe9]), Buffer.from('"}}}}')]);
    const notUtf8 = await server.request(SERVICE, { method: 'POST', body: latin1, headers: { 'Content-Type': 'application/json' } });
    expect((await problemOf(notUtf8)).detail).toBe('the body is not valid UTF-8');
    const huge = await post('{"facets":["addon:ports"],"values":{"w":{"metadata":{"name":"w"},"spec":{"ports":[{"port":1e400}]}}}}');
    expect(await problemOf(huge)).toMatchObject({
      status: 400,
      detail: 'the number at /values/w/spec/ports/0/port is too large to represent',
    });
  });

  it('400 naming the JSON Pointer of a string or member name that holds a lone UTF-16 surrogate, on exec and batch', async () => {
    const why =
      'holds a lone UTF-16 surrogate, which UTF-8 cannot carry (kubectl would read U+FFFD); send the whole character as a surrogate pair, or leave it out';
    const inString = await problemOf(await post('{"values":{"w":{"metadata":{"name":"w","labels":{"a~b/c":"x\\ud800y"}}}}}'));
    expect(inString).toMatchObject({
      type: '/problems/bad-request',
      status: 400,
      detail: `the string at /values/w/metadata/labels/a~0b~1c ${why}`,
    });
    expect(inString.errors).toEqual([{ pointer: '/values/w/metadata/labels/a~0b~1c', detail: inString.detail }]);
    const batch =
      '{"resources":[{"repository":"service-resources","collection":"service"}],"values":{"w":{"metadata":{"name":"w","labels":{"\\uDC00x":"v"}}}}}';
    const inName = await problemOf(
      await server.request(`${BASE}/exec?format=yaml`, { method: 'POST', body: batch, headers: { 'Content-Type': 'application/json' } }),
    );
    expect(inName.detail).toBe(`the member name "\\udc00x" in the object at /values/w/metadata/labels ${why}`);
    expect(inName.errors).toEqual([{ pointer: '/values/w/metadata/labels/\udc00x', detail: inName.detail }]);
    // A pair is one character, escaped or not: in an annotation, whose value may be any text.
    const pairs = JSON.stringify(seedWith((entry) => ({ ...entry, metadata: { ...entry.metadata, annotations: { e: 'PAIRS' } } })));
    expect((await post(pairs.replace('"PAIRS"', '"\\ud83d\\ude00😀"'))).status).toBe(200);
  });

  it('400 naming an unknown query parameter, the ones the route takes and the one most likely meant, on exec, batch and discovery', async () => {
    const values = { w: { metadata: { name: 'w' } } };
    const exec = await problemOf(await server.request(`${SERVICE}?fromat=yaml`, { method: 'POST', json: { values } }));
    expect(exec).toMatchObject({
      type: '/problems/bad-request',
      status: 400,
      detail: 'unknown query parameter "fromat"; this route takes format, strict, release; did you mean "format"?',
      parameter: 'fromat',
      known: ['format', 'strict', 'release'],
    });
    const batch = await problemOf(
      await server.request(`${BASE}/exec?format=yaml&stirct=true`, {
        method: 'POST',
        json: { resources: [{ repository: 'service-resources', collection: 'service' }], values },
      }),
    );
    expect(batch).toMatchObject({
      status: 400,
      detail: 'unknown query parameter "stirct"; this route takes format, strict; did you mean "strict"?',
    });
    // A batch names releases per resource, so release is no parameter of it, and nothing is close to it.
    const release = await problemOf(
      await server.request(`${BASE}/exec?release=1.0.0`, { method: 'POST', json: { resources: [], values } }),
    );
    expect(release.detail).toBe('unknown query parameter "release"; this route takes format, strict');
    const collection = await problemOf(await server.request(`${BASE}/service-resources/v1/resources/collections/service?relase=1.0.0`));
    expect(collection.detail).toBe('unknown query parameter "relase"; this route takes release; did you mean "release"?');
    const vendors = await problemOf(await server.request('/apis/repos?pretty'));
    expect(vendors.detail).toBe('unknown query parameter "pretty"; this route takes none');
    // The problem type says so too.
    expect(((await (await server.request('/problems/bad-request')).json()) as { description: string }).description).toContain(
      'query parameter the route does not take',
    );
  });

  it('takes every query parameter the OpenAPI document gives an operation', async () => {
    const document = (await (await server.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
    };
    const fill: Record<string, string> = { vendor: 'facetform', repository: 'service-resources', apiVersion: 'v1', collection: 'service' };
    let checked = 0;
    for (const [template, operations] of Object.entries(document.paths)) {
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => fill[name]!);
      for (const [method, operation] of Object.entries(operations)) {
        for (const parameter of (operation.parameters ?? []).filter((candidate) => candidate.in === 'query')) {
          const response = await server.request(`${path}?${parameter.name}=x`, {
            method: method.toUpperCase(),
            ...(method === 'post' ? { json: { values: {} } } : {}),
          });
          const body = await response.text();
          expect(body, `${method} ${path} ${parameter.name}`).not.toContain('unknown query parameter');
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('401 for a missing or wrong key, with the same answer', async () => {
    const missing = await problemOf(await server.request(SERVICE, { method: 'POST', headers: { 'X-APIKEY': '' }, json: {} }));
    const wrong = await problemOf(await server.request(SERVICE, { method: 'POST', headers: { 'X-APIKEY': 'not-the-key' }, json: {} }));
    expect(missing).toMatchObject({
      type: '/problems/unauthorized',
      status: 401,
      detail: 'send a valid API key in the X-APIKEY header (or as Authorization: Bearer)',
    });
    expect({ ...wrong, instance: undefined }).toEqual({ ...missing, instance: undefined });
  });

  it('asks for the key on every route but the public ones, whatever the letter case of the path', async () => {
    for (const path of [
      '/Apis/repos/facetform/service-resources/v1/resources/collections/service/exec',
      '/APIS/repos',
      '/no/such/route',
      '/healthz/',
    ]) {
      const response = await server.request(path, {
        method: 'POST',
        json: { values: { w: { metadata: { name: 'w' } } } },
        headers: { 'X-APIKEY': '' },
      });
      expect(response.status, path).toBe(401);
    }
    expect(
      (
        await server.request('/Apis/repos/facetform/service-resources/v1/resources/collections/service/exec', {
          method: 'POST',
          json: { values: {} },
        })
      ).status,
    ).toBe(404);
  });

  it('404 naming what exists, for each part of the path', async () => {
    // What exists is what the test server serves, built from repos/: an author's new collection changes no line here.
    const repositories = repositoriesIn();
    const { repository, collection } = SEED;
    const { collections } = repositories.find((candidate) => candidate.name === repository)!;
    const cases: Array<[string, string]> = [
      [`/apis/repos/acme/${repository}/v1/resources/collections/${collection}/exec`, 'no vendor "acme"; known: facetform'],
      [
        `${BASE}/${repository.slice(0, -1)}/v1/resources/collections/${collection}/exec`,
        `no repository "${repository.slice(0, -1)}"; known: ${repositories.map(({ name }) => name).join(', ')}`,
      ],
      [`${BASE}/${repository}/v9/resources/collections/${collection}/exec`, 'no API version "v9"; known: v1'],
      [`${BASE}/${repository}/v1/resources/collections/svc/exec`, `no collection "svc"; known: ${collections.join(', ')}`],
    ];
    for (const [path, detail] of cases) {
      const problem = await problemOf(await server.request(path, { method: 'POST', json: { values: {} } }));
      expect(problem).toMatchObject({ type: '/problems/not-found', status: 404, detail });
    }
    const noRoute = await problemOf(await server.request('/nothing/here'));
    expect(noRoute.detail).toBe('no route for GET /nothing/here; the API is described at GET /openapi.json');
  });

  it('405 with Allow for other methods on an exec path', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const response = await server.request(SERVICE, { method });
      expect(response.headers.get('allow')).toBe('POST');
      expect(await problemOf(response)).toMatchObject({ type: '/problems/method-not-allowed', status: 405 });
    }
  });

  it('405 with the right Allow for methods the router does not know', async () => {
    const response = await server.request(SERVICE, { method: 'PROPFIND' });
    expect(response.headers.get('allow')).toBe('POST');
    expect((await problemOf(response)).status).toBe(405);
  });

  it('431 as problem+json for headers too large for the HTTP parser', async () => {
    const response = await server.request('/healthz?' + 'x'.repeat(20_000));
    expect(await problemOf(response)).toMatchObject({ status: 431, title: 'Request Header Fields Too Large' });
    // Written on the socket, outside the pipeline, and still with the header every answer carries.
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('413 for a body over 1 MiB, whether or not Content-Length announces it', async () => {
    const big = JSON.stringify({ values: { web: { metadata: { name: 'w' }, pad: 'x'.repeat(1024 * 1024) } } });
    expect(await problemOf(await post(big))).toMatchObject({ type: '/problems/payload-too-large', status: 413 });
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(server.url + SERVICE);
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-APIKEY': KEY, 'Transfer-Encoding': 'chunked' },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('error', reject);
      for (let sent = 0; sent < 2 * 1024 * 1024; sent += 64 * 1024) req.write('x'.repeat(64 * 1024));
      req.end();
    }).catch((error: NodeJS.ErrnoException) => ({ status: error.code === 'ECONNRESET' || error.code === 'EPIPE' ? 413 : 0, body: '{}' }));
    expect(chunked.status).toBe(413);
  });

  it('415 for a body that is not application/json', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const problem = await problemOf(await post('{"values":{}}', { 'Content-Type': type }));
      expect(problem).toMatchObject({
        type: '/problems/unsupported-media-type',
        status: 415,
        detail: `the body must be application/json, not ${type}`,
      });
    }
    expect((await problemOf(await post('{"values":{}}', {}))).status).toBe(415);
    expect((await problemOf(await post('{"values":{}}', { 'Content-Type': 'application/json; charset=utf-16' }))).detail).toBe(
      'JSON must be UTF-8, not charset=utf-16',
    );
    expect((await problemOf(await post('{"values":{}}', { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }))).detail).toBe(
      'Content-Encoding gzip is not supported; send the body uncompressed',
    );
    expect((await post(JSON.stringify(SEED.seed), { 'Content-Type': 'application/json; charset=utf-8' })).status).toBe(200);
  });

  it('422 for a body of the wrong shape', async () => {
    for (const body of ['[]', '"text"', '42', 'null', '{}']) {
      const problem = await problemOf(await post(body));
      expect(problem.status).toBe(422);
      expect(problem.errors!.length).toBeGreaterThan(0);
    }
  });

  it('422, never a 500, for a request with tens of thousands of problems, listing the first 100 and counting the rest, on exec and batch', async () => {
    const { maxItems, maxResources } = readLimits({});
    const facets = Array.from({ length: maxItems }, () => 'x');
    const values = { w: { metadata: { name: 'w' } } };
    const exec = await problemOf(await post(JSON.stringify({ facets, values })));
    expect(exec).toMatchObject({ status: 422, more: maxItems - 100 });
    expect(exec.errors).toHaveLength(100);
    expect(exec.errors![0]).toEqual({ pointer: '/facets/0', detail: expect.stringContaining('"x" is not a facet of service') });
    const resources = Array.from({ length: maxResources }, () => ({ repository: 'service-resources', collection: 'service', facets }));
    const batch = await problemOf(await server.request(`${BASE}/exec`, { method: 'POST', json: { resources, values } }));
    expect(batch).toMatchObject({ status: 422, more: maxResources * maxItems - 100 });
    expect(batch.errors).toHaveLength(100);
    expect(batch.errors![99]!.pointer).toBe('/resources/0/facets/99');
  });

  it('422 naming the list, not each entry, for a facet list longer than any array may be', async () => {
    const problem = await problemOf(
      await post(JSON.stringify({ facets: Array.from({ length: 130_000 }, () => 'x'), values: { w: { metadata: { name: 'w' } } } })),
    );
    expect(problem).toMatchObject({
      status: 422,
      title: 'Request over limits',
      detail: "1 part of the request exceeds the server's limits; see errors",
      errors: [{ pointer: '/facets', detail: `has 130000 items; at most ${readLimits({}).maxItems}` }],
    });
  });

  it('500 with a request id and no internals for an unexpected failure, logged with its stack', async () => {
    const original = server.state.registry.bundle;
    server.state.registry.bundle = () => {
      throw new Error('disk on fire at /secret/path');
    };
    try {
      const response = await server.request(SERVICE, { method: 'POST', json: { values: {} }, headers: { 'X-Request-Id': 'req-500-test' } });
      const problem = await problemOf(response);
      expect(problem).toEqual({
        type: '/problems/internal-error',
        title: 'Internal server error',
        status: 500,
        detail: 'the server failed unexpectedly; quote request id req-500-test when reporting it',
        instance: 'urn:request:req-500-test',
      });
      const logged = server.logs.find((line) => line.msg === 'unexpected error' && line.requestId === 'req-500-test') as {
        err: { stack: string };
      };
      expect(logged.err.stack).toContain('disk on fire');
    } finally {
      server.state.registry.bundle = original;
    }
  });
});
