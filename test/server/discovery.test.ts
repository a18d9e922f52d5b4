/** Discovery, the OpenAPI document (checked by a real OpenAPI validator), health, readiness and metrics. */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubernetesFormats } from '../../src/kubernetes/kube-formats.js';
import { BASE, execPath, problemOf, startTestServer, type TestServer } from '../helpers/server.js';
import { collectionOfKind, declaredRelease, examplesIn, facetsOf, repositoriesIn, sectionsOf } from '../helpers/repos.js';

const SERVICE = collectionOfKind('Service');
const STORAGECLASS = collectionOfKind('StorageClass');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('discovery', () => {
  it('lists vendors, and the repositories of a vendor with their API versions and releases', async () => {
    expect((await (await server.request('/apis/repos')).json()) as any).toEqual({ vendors: [{ name: 'facetform', href: BASE }] });
    const body = (await (await server.request(BASE)).json()) as any;
    expect(body.repositories.map((r: { name: string }) => r.name)).toEqual(repositoriesIn().map((repository) => repository.name));
    const release = declaredRelease('service-resources');
    expect(body.repositories.find((r: { name: string }) => r.name === 'service-resources').apiVersions).toEqual([
      { apiVersion: 'v1', latest: release, releases: [release], href: `${BASE}/service-resources/v1/resources/collections` },
    ]);
    expect((await problemOf(await server.request('/apis/repos/acme'))).detail).toBe('no vendor "acme"; known: facetform');
  });

  it('lists the collections of a repository with their facets', async () => {
    const response = await server.request(`${BASE}/${SERVICE.repository}/v1/resources/collections`);
    expect(response.headers.get('x-facetform-release')).toBe(declaredRelease(SERVICE.repository));
    const body = (await response.json()) as any;
    expect(body).toMatchObject({
      repository: SERVICE.repository,
      vendor: 'facetform',
      apiVersion: 'v1',
      release: declaredRelease(SERVICE.repository),
    });
    expect(body.collections.map((c: { name: string }) => c.name)).toEqual(
      repositoriesIn().find((repository) => repository.name === SERVICE.repository)!.collections,
    );
    const service = body.collections.find((c: { name: string }) => c.name === SERVICE.collection);
    expect(service).toMatchObject({ kind: 'Service', apiVersion: 'v1', variable: SERVICE.variable });
    // Every facet its sections carry, master included, sorted: read from repos/, not listed by hand.
    expect(service.facets).toEqual(facetsOf(SERVICE));
  });

  it('describes one collection: sections with facets and descriptions, and examples', async () => {
    const body = (await (
      await server.request(`${BASE}/${STORAGECLASS.repository}/v1/resources/collections/${STORAGECLASS.collection}`)
    ).json()) as any;
    expect(body).toMatchObject({
      name: STORAGECLASS.collection,
      variable: STORAGECLASS.variable,
      kind: 'StorageClass',
      apiVersion: 'storage.k8s.io/v1',
    });
    // The sections of repos/, masters first, then the others in file-name order (the merge order).
    const sections = sectionsOf(STORAGECLASS);
    const ordered = [
      ...sections.filter(({ section }) => section.facets.includes('master')),
      ...sections.filter(({ section }) => !section.facets.includes('master')),
    ];
    expect(body.sections.map((section: { name: string; facets: string[] }) => [section.name, section.facets])).toEqual(
      ordered.map(({ name, section }) => [name, section.facets]),
    );
    expect(body.sections.every((section: { description: string }) => section.description.length > 10)).toBe(true);
    // Each section lists the input paths its placeholders read: the console shows them as the facet's fields.
    expect(body.sections[0].inputs).toEqual(['metadata']);
    // The section that writes provisioner reads it as {{ A ?? B }}: both paths.
    const provisioner = sections.find(({ section }) => Object.hasOwn(section, 'provisioner'))!;
    expect(body.sections.find((section: { name: string }) => section.name === provisioner.name).inputs).toEqual([
      'provisioner',
      'spec.provisioner',
    ]);
    expect(body.examples.map((example: { name: string }) => example.name)).toEqual(
      examplesIn()
        .filter((example) => example.repository === STORAGECLASS.repository && example.collection === STORAGECLASS.collection)
        .map((example) => example.name),
    );
    expect(body.links.exec).toBe(`${BASE}/${STORAGECLASS.repository}/v1/resources/collections/${STORAGECLASS.collection}/exec`);
  });

  it('serves the input JSON Schema of a collection', async () => {
    const response = await server.request(`${BASE}/${SERVICE.repository}/v1/resources/collections/${SERVICE.collection}/schema`);
    expect(response.headers.get('content-type')).toBe('application/schema+json');
    const schema = (await response.json()) as any;
    expect(schema.title).toBe('ServiceValues');
    expect(schema.required).toEqual(['metadata']);
  });
});

describe('OpenAPI document', () => {
  let document: any;
  beforeAll(async () => {
    document = (await (await server.request('/openapi.json')).json()) as any;
  });

  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('has one operation per exec path, with the API-key scheme, request schema, examples and error answers', () => {
    const execPaths = Object.keys(document.paths).filter((path) => path.endsWith('/exec') && path !== '/apis/repos/facetform/exec');
    expect(execPaths).toHaveLength(repositoriesIn().reduce((count, repository) => count + repository.collections.length, 0));
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-APIKEY' });
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ apiKey: [] }, { bearer: [] }]);
    const operation = document.paths[execPath(SERVICE.repository, SERVICE.collection)].post;
    expect(Object.keys(operation.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '404',
      '405',
      '406',
      '408',
      '413',
      '415',
      '422',
      '429',
      '431',
      '500',
      '503',
    ]);
    expect(operation.requestBody.content['application/json'].examples.seed.value.globalvars).toEqual(SERVICE.seed.globalvars);
    expect(operation.requestBody.content['application/json'].schema.properties.facets.items.enum).toEqual(
      expect.arrayContaining(facetsOf(SERVICE)),
    );
  });

  it('describes the batch operation, with an example that renders', async () => {
    const operation = document.paths['/apis/repos/facetform/exec'].post;
    expect(operation.requestBody.content['application/json'].schema.required).toEqual(['resources', 'values']);
    const example = operation.requestBody.content['application/json'].examples.application.value;
    // The seeds of the first collections that have one, at most four (src/server/openapi/render-paths.ts).
    const seeds = Math.min(4, examplesIn().filter((shipped) => shipped.name === 'seed').length);
    expect(example.resources.length).toBe(seeds);
    const response = await server.request('/apis/repos/facetform/exec', { method: 'POST', json: example });
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).items).toHaveLength(seeds);
  });

  it('has request schemas that accept the examples and reject bad values', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    // The formats the document's schemas use (byte, int64, quantity …), as the server judges them.
    for (const [name, format] of Object.entries(kubernetesFormats)) ajv.addFormat(name, format as never);
    ajv.addSchema({ $id: 'openapi', components: document.components });
    for (const [path, item] of Object.entries<any>(document.paths)) {
      if (!path.endsWith('/exec')) continue;
      const content = item.post.requestBody.content['application/json'];
      const validate = ajv.compile(JSON.parse(JSON.stringify(content.schema).replaceAll('"#/components/', '"openapi#/components/')));
      for (const [name, example] of Object.entries<any>(content.examples)) expect(validate(example.value), `${path} ${name}`).toBe(true);
    }
    const service = document.paths[execPath(SERVICE.repository, SERVICE.collection)].post.requestBody.content['application/json'].schema;
    const validate = ajv.compile(JSON.parse(JSON.stringify(service).replaceAll('"#/components/', '"openapi#/components/')));
    expect(validate({ values: { web: { metadata: { name: 'w' }, spec: { ports: [{ port: 'http' }] } } } })).toBe(false);
  });
});

describe('operations', () => {
  // A request the API server takes (a ClusterIP Service needs its ports): the Service collection's seed, from repos/.

  it('reports health and readiness', async () => {
    expect((await (await server.request('/healthz')).json()) as any).toEqual({ status: 'ok' });
    expect((await (await server.request('/readyz')).json()) as any).toEqual({ status: 'ready', bundles: 3 });
  });

  it('exposes Prometheus metrics: requests by route and status, and render durations', async () => {
    await server.request(execPath(SERVICE.repository, SERVICE.collection), { method: 'POST', json: SERVICE.seed });
    const text = await (await server.request('/metrics')).text();
    expect(text).toContain(
      'facetform_http_requests_total{method="POST",route="/apis/repos/:vendor/:repository/:apiVersion/resources/collections/:collection/exec",status="200"}',
    );
    expect(text).toMatch(new RegExp(`facetform_render_duration_seconds_count\\{collection="${SERVICE.collection}"\\} [1-9]`));
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('records the latency of every HTTP request in a histogram by method, route and status, counted as the request counter counts', async () => {
    const exec = execPath(SERVICE.repository, SERVICE.collection);
    const labels = (status: number) =>
      `method="POST",route="/apis/repos/:vendor/:repository/:apiVersion/resources/collections/:collection/exec",status="${status}"`;
    const sample = (text: string, name: string, status: number, le?: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${name}{${le === undefined ? '' : `le="${le}",`}${labels(status)}}`));
      return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
    };
    const before = await (await server.request('/metrics')).text();
    for (let index = 0; index < 3; index++) await server.request(exec, { method: 'POST', json: SERVICE.seed });
    await server.request(exec, { method: 'POST', json: { values: { w: { metadata: { name: 7 } } } } });
    const after = await (await server.request('/metrics')).text();
    const delta = (name: string, status: number, le?: string) => sample(after, name, status, le) - sample(before, name, status, le);
    expect([
      delta('facetform_http_request_duration_seconds_count', 200),
      delta('facetform_http_request_duration_seconds_count', 422),
    ]).toEqual([3, 1]);
    expect([delta('facetform_http_requests_total', 200), delta('facetform_http_requests_total', 422)]).toEqual([3, 1]);
    expect(delta('facetform_http_request_duration_seconds_bucket', 200, '+Inf')).toBe(3);
    expect(delta('facetform_http_request_duration_seconds_sum', 200)).toBeGreaterThan(0);
    const buckets = after
      .split('\n')
      .filter((line) => line.startsWith('facetform_http_request_duration_seconds_bucket{') && line.includes(labels(200)))
      .map((line) => Number(line.slice(line.lastIndexOf(' ') + 1)));
    expect(buckets.length).toBeGreaterThan(5);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
  });

  it('logs one structured line per request with method, route, status, duration and request id', async () => {
    await server.request('/healthz', { headers: { 'X-Request-Id': 'trace-42' } });
    const line = server.logs.find((entry) => entry.requestId === 'trace-42')!;
    expect(line).toMatchObject({ msg: 'request', method: 'GET', route: '/healthz', status: 200 });
    expect(typeof line.durationMs).toBe('number');
  });

  it('echoes a sensible X-Request-Id and makes one otherwise', async () => {
    expect((await server.request('/healthz', { headers: { 'X-Request-Id': 'abc-123' } })).headers.get('x-request-id')).toBe('abc-123');
    expect((await server.request('/healthz', { headers: { 'X-Request-Id': 'bad id with spaces' } })).headers.get('x-request-id')).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });
});
