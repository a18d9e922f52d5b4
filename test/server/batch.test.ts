/** Several resources in one call: an application of four resources across two repositories. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { checkManifest } from '../../src/manifest/kube-check.js';
import { declaredRelease, facetsOf, repositoriesIn, ROOT } from '../helpers/repos.js';
import { problemOf, startTestServer, type TestServer } from '../helpers/server.js';

const BATCH = '/apis/repos/facetform/exec';
const APP = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/batch/app.json'), 'utf8'));
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ state: { limits: { maxValuesEntries: 100, maxStringLength: 65536, maxItems: 1000, maxResources: 5 } } });
});
afterAll(() => server.close());

describe('batch exec', () => {
  it('renders a Service, Ingress, ConfigMap and PersistentVolumeClaim as a v1 List, in request order', async () => {
    const response = await server.request(BATCH, { method: 'POST', json: APP });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-facetform-release')).toBe(
      `service-resources/v1/${declaredRelease('service-resources')}, config-and-storage-resources/v1/${declaredRelease('config-and-storage-resources')}`,
    );
    expect(response.headers.get('x-facetform-bundle-digest')!.split(', ')).toHaveLength(2);
    const list = (await response.json()) as any;
    expect(list).toMatchObject({ apiVersion: 'v1', kind: 'List' });
    expect(list.items.map((item: { kind: string }) => item.kind)).toEqual(['Service', 'Ingress', 'ConfigMap', 'PersistentVolumeClaim']);
    for (const item of list.items) expect(await checkManifest(item), item.kind).toEqual({ checked: true, errors: [] });
    expect(list.items[0].spec.ports).toEqual([{ port: 80, targetPort: 8080 }]);
  });

  it('renders the same as YAML documents that parse back to the same items', async () => {
    const json = (await (await server.request(BATCH, { method: 'POST', json: APP })).json()) as any;
    const response = await server.request(`${BATCH}?format=yaml`, { method: 'POST', json: APP });
    expect(response.headers.get('content-type')).toBe('application/yaml');
    const documents = parseAllDocuments(await response.text()).map((document) => document.toJS({}));
    expect(documents).toEqual(json.items);
  });

  it('answers one problem with every problem of every resource and renders nothing', async () => {
    const broken = structuredClone(APP);
    broken.resources[2].facets = ['addon:dta'];
    broken.resources[3].collection = 'pvc';
    broken.values.web.spec.ports[0].port = 'http';
    const problem = await problemOf(await server.request(BATCH, { method: 'POST', json: broken }));
    expect(problem).toMatchObject({ status: 422, title: 'Invalid request' });
    // The facets and collections named are those of repos/, whatever an author has added.
    const configMap = broken.resources[2] as { repository: string; collection: string };
    const known = repositoriesIn().find((repository) => repository.name === broken.resources[3].repository)!.collections;
    expect(problem.errors).toEqual([
      {
        pointer: '/resources/2/facets/0',
        detail: `"addon:dta" is not a facet of ${configMap.collection}; its facets are ${facetsOf(configMap).join(', ')}; did you mean "addon:data"?`,
      },
      {
        pointer: '/resources/3/collection',
        detail: `no collection "pvc"; known: ${known.join(', ')}`,
      },
      { pointer: '/values/web/spec/ports/0/port', detail: 'must be integer' },
    ]);
  });

  it('checks the shape of resources, and names the repositories that exist', async () => {
    const problem = await problemOf(
      await server.request(BATCH, {
        method: 'POST',
        json: {
          resources: [
            { repository: 'nope', collection: 'x' },
            { collection: 3, color: 'red' },
          ],
          values: APP.values,
          globalvars: APP.globalvars,
        },
      }),
    );
    expect(problem.errors).toEqual([
      {
        pointer: '/resources/0/repository',
        detail: `no repository "nope"; known: ${repositoriesIn()
          .map(({ name }) => name)
          .join(', ')}`,
      },
      { pointer: '/resources/1/collection', detail: 'is required: a string' },
      {
        pointer: '/resources/1/color',
        detail: 'is not a member of a resource; use repository, collection, facets, apiVersion, release, globalvars',
      },
      { pointer: '/resources/1/repository', detail: 'is required: a string' },
    ]);
  });

  it('applies the limits to the whole body and caps the number of resources', async () => {
    const many = { ...APP, resources: Array.from({ length: 6 }, () => APP.resources[0]) };
    expect((await problemOf(await server.request(BATCH, { method: 'POST', json: many }))).errors).toEqual([
      { pointer: '/resources', detail: 'has 6 resources; at most 5' },
    ]);
    const big = { ...APP, values: { ...APP.values, pad: { x: 'x'.repeat(1024 * 1024) } } };
    expect((await problemOf(await server.request(BATCH, { method: 'POST', json: big }))).status).toBe(413);
    const deep = `{"resources":[],"values":${'['.repeat(70)}${']'.repeat(70)}}`;
    expect(
      (await problemOf(await server.request(BATCH, { method: 'POST', body: deep, headers: { 'Content-Type': 'application/json' } })))
        .status,
    ).toBe(400);
    expect((await problemOf(await server.request(BATCH, { method: 'POST', json: { resources: [] } }))).errors![0]).toEqual({
      pointer: '/resources',
      detail: 'is required: a non-empty array of { repository, collection, facets }',
    });
  });

  it('lists the parts over the limits in body order: /resources/0 before /resources/1, a member before what is inside it', async () => {
    // Every resource names a repository longer than MAX_STRING_LENGTH, and a values entry has one too.
    const long = 'r'.repeat(65537);
    const resources = APP.resources.slice(0, 3).map((resource: object) => ({ ...resource, repository: long }));
    const values = { ...APP.values, pad: { ['k'.repeat(65537)]: long } };
    const problem = await problemOf(await server.request(BATCH, { method: 'POST', json: { ...APP, resources, values } }));
    expect(problem.title).toBe('Request over limits');
    expect(problem.errors!.map((error) => error.pointer.slice(0, 24))).toEqual([
      '/resources/0/repository',
      '/resources/1/repository',
      '/resources/2/repository',
      '/values/pad/kkkkkkkkkkkk',
      '/values/pad/kkkkkkkkkkkk',
    ]);
    expect(problem.errors!.slice(3).map((error) => error.detail)).toEqual([
      'is a member name 65537 characters long; at most 65536',
      'is 65537 characters long; at most 65536',
    ]);
  });

  it('warns about values entries no resource reads, and answers 404 for an unknown vendor', async () => {
    const extra = { ...APP, values: { ...APP.values, spare: { metadata: { name: 'spare' } } } };
    const response = await server.request(BATCH, { method: 'POST', json: extra });
    expect(response.status).toBe(200);
    expect(response.headers.get('warning')).toBe('299 - "values entry \\"spare\\" is not read by any resource"');
    expect((await problemOf(await server.request('/apis/repos/acme/exec', { method: 'POST', json: APP }))).status).toBe(404);
  });

  it('keeps those warnings short however long and many the unused ids are', async () => {
    const spare = Object.fromEntries(
      Array.from({ length: 25 }, (_, index) => [`${index}${'x'.repeat(30_000)}`, { metadata: { name: 'x' } }]),
    );
    const response = await server.request(BATCH, { method: 'POST', json: { ...APP, values: { ...APP.values, ...spare } } });
    expect(response.status).toBe(200);
    const warnings = response.headers.get('warning')!.split(/, (?=299 )/);
    expect(warnings).toHaveLength(21);
    expect(warnings[20]).toBe('299 - "5 more values entries are not read by any resource"');
    expect(response.headers.get('warning')!.length).toBeLessThan(8000);
  });
});
