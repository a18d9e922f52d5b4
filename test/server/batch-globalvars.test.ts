/**
 * A batch resource's own globalvars, over real HTTP: merged over the body's for that resource only,
 * so that resources of one collection render different values entries of one body; checked as the
 * body's are (422 pointers under /resources/N/globalvars), and counted per resource by the limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionOfKind, facetsWriting } from '../helpers/repos.js';
import { BASE, execPath, problemOf, startTestServer, type TestServer } from '../helpers/server.js';

const BATCH = `${BASE}/exec`;
const service = collectionOfKind('Service');
const configMap = collectionOfKind('ConfigMap');
const seedId = service.seed.globalvars![service.variable]!;
const seedEntry = service.seed.values[seedId];
/** The seed's Service, and another of another name and port. */
const api = {
  ...structuredClone(seedEntry),
  metadata: { ...seedEntry.metadata, name: 'api' },
  spec: { ...seedEntry.spec, ports: [{ port: 9090, protocol: 'TCP', targetPort: 9091 }] },
};
const values = { [seedId]: seedEntry, api };
const resource = (globalvars?: unknown) => ({
  repository: service.repository,
  collection: service.collection,
  facets: service.seed.facets,
  ...(globalvars === undefined ? {} : { globalvars }),
});

let server: TestServer;
let limited: TestServer;
const MAX_VALUES_NODES = 5000;
const MAX_ANSWER_BYTES = 256 * 1024;
beforeAll(async () => {
  server = await startTestServer();
  limited = await startTestServer({ state: { limits: { maxValuesNodes: MAX_VALUES_NODES, maxAnswerBytes: MAX_ANSWER_BYTES } } });
});
afterAll(async () => {
  await server.close();
  await limited.close();
});

describe("a batch resource's own globalvars", () => {
  it('lets two resources of one collection render different values entries, each as its own exec request renders it', async () => {
    // The first reads the body's globalvars, the second its own: no values entry is left unread.
    const body = { resources: [resource(), resource({ [service.variable]: 'api' })], values, globalvars: service.seed.globalvars };
    const response = await server.request(BATCH, { method: 'POST', json: body });
    expect(response.status).toBe(200);
    expect(response.headers.get('warning')).toBeNull();
    const { items } = (await response.json()) as { items: Array<{ metadata: { name: string }; spec: { ports: unknown } }> };
    expect(items.map((item) => item.metadata.name)).toEqual([seedEntry.metadata.name, 'api']);
    expect(items[1]!.spec.ports).toEqual(api.spec.ports);
    const single = (id: string) =>
      server.request(execPath(service.repository, service.collection), {
        method: 'POST',
        json: { facets: service.seed.facets, values: { [id]: values[id] }, globalvars: { [service.variable]: id } },
      });
    expect(items).toEqual([await (await single(seedId)).json(), await (await single('api')).json()]);
  });

  it("wins over the body's entry for its resource only, and an entry no resource reads is still warned about", async () => {
    const body = {
      resources: [resource({ [service.variable]: 'api' }), resource()],
      values: { ...values, spare: api },
      globalvars: service.seed.globalvars,
    };
    const response = await server.request(BATCH, { method: 'POST', json: body });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { items: Array<{ metadata: { name: string } }> }).items.map((item) => item.metadata.name)).toEqual([
      'api',
      seedEntry.metadata.name,
    ]);
    expect(response.headers.get('warning')).toBe('299 - "values entry \\"spare\\" is not read by any resource"');
  });

  it('of the wrong type, or naming an entry values lacks, is a 422 under /resources/N/globalvars in body order, and nothing renders', async () => {
    const broken = structuredClone(values);
    broken.api.spec.ports[0].port = 'http';
    const body = {
      resources: [
        resource('api'),
        resource({ [service.variable]: 3 }),
        resource({ [service.variable]: 'apj' }),
        resource({ [service.variable]: 'api' }),
      ],
      values: broken,
      globalvars: service.seed.globalvars,
    };
    const problem = await problemOf(await server.request(BATCH, { method: 'POST', json: body }));
    expect(problem).toMatchObject({ status: 422, title: 'Invalid request' });
    expect(problem.errors).toEqual([
      {
        pointer: '/resources/0/globalvars',
        detail: "must be an object mapping a template variable to a key of values (merged over the body's globalvars)",
      },
      { pointer: `/resources/1/globalvars/${service.variable}`, detail: 'must be a string naming a key of values' },
      { pointer: `/resources/2/globalvars/${service.variable}`, detail: `names "apj", which values lacks; values has "${seedId}", "api"` },
      { pointer: '/values/api/spec/ports/0/port', detail: 'must be integer' },
    ]);
  });

  it('names each resource that reads a variable the body has no entry for, so that one of many is found', async () => {
    // No globalvars in the body: the first and third resources lack the entry, the second names its own.
    const body = { resources: [resource(), resource({ [service.variable]: 'api' }), resource()], values };
    const problem = await problemOf(await server.request(BATCH, { method: 'POST', json: body }));
    expect(problem.status).toBe(422);
    const missing = problem.errors!.filter((error) => error.pointer === '/globalvars');
    expect(missing.map((error) => / \(read by (\/resources\/\d+)\)$/.exec(error.detail)?.[1])).toEqual(['/resources/0', '/resources/2']);
    expect(missing[0]!.detail).toContain(`has no entry for ${service.variable}`);
  });

  it('is counted by the limits per resource: the values nodes and answer bytes of the entry each resource reads', async () => {
    const facets = facetsWriting(configMap, 'data');
    const ofConfigMap = (id?: string) => ({
      repository: configMap.repository,
      collection: configMap.collection,
      facets,
      ...(id === undefined ? {} : { globalvars: { [configMap.variable]: id } }),
    });
    const post = (resources: unknown[], entries: Record<string, unknown>) =>
      limited.request(BATCH, { method: 'POST', json: { resources, values: entries, globalvars: { [configMap.variable]: 'small' } } });
    const small = { metadata: { name: 'small' }, data: { a: 'b' } };
    // About 2,000 JSON values each: two readers fit in 5,000, three do not.
    const many = { metadata: { name: 'many' }, extra: Array.from({ length: 2 }, () => Array.from({ length: 1000 }, () => 1)) };
    expect((await post([ofConfigMap(), ofConfigMap('many'), ofConfigMap('many')], { small, many })).status).toBe(200);
    expect(await problemOf(await post([ofConfigMap('many'), ofConfigMap('many'), ofConfigMap('many')], { small, many }))).toMatchObject({
      status: 422,
      title: 'Request over limits',
      errors: [{ pointer: '/resources', detail: expect.stringMatching(/values entry "many" \(\d+\) is read by 3 of them$/) }],
    });
    // About 100 KB each: the third resource's own entry takes the answer past 256 KiB.
    const large = (name: string) => ({ metadata: { name }, data: { a: 'x'.repeat(50_000), b: 'y'.repeat(50_000) } });
    const entries = { small, one: large('one'), two: large('two') };
    expect((await post([ofConfigMap('one'), ofConfigMap('two'), ofConfigMap()], entries)).status).toBe(200);
    expect(await problemOf(await post([ofConfigMap('one'), ofConfigMap('two'), ofConfigMap('one')], entries))).toMatchObject({
      status: 422,
      type: '/problems/answer-too-large',
      errors: [{ pointer: '/resources/2', detail: expect.stringContaining('takes the answer past 256 KiB') }],
    });
  });
});
