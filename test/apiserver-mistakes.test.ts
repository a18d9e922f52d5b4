/**
 * The mistakes only the API server's own validation catches (issue 30), each made in a shipped
 * collection's seed request as a user would make it, over real HTTP: a 422 at the request member,
 * in the API server's words; and their valid neighbours, which stay 200. Collections, entries and
 * facets come from repos/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionOfKind, examplesIn, type ShippedCollection } from './helpers/repos.js';
import { execPath, problemOf, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** The kind's seed request with its values entry changed by `change` (a deep copy, so seeds stay as they are). */
function seedOf(
  kind: string,
  change: (entry: Record<string, any>) => void,
): { found: ShippedCollection; id: string; request: Record<string, any> } {
  const found = collectionOfKind(kind);
  const request = structuredClone(found.seed) as Record<string, any>;
  const id = request.globalvars[found.variable] as string;
  change(request.values[id]);
  return { found, id, request };
}

async function exec(kind: string, change: (entry: Record<string, any>) => void) {
  const { found, id, request } = seedOf(kind, change);
  const response = await server.request(execPath(found.repository, found.collection), { method: 'POST', json: request });
  return { id, status: response.status, problem: response.status === 200 ? undefined : await problemOf(response) };
}

/** A 422 with a problem at `pointer` (under /values/<id>) whose detail has `words`. */
async function expectRefused(kind: string, change: (entry: Record<string, any>) => void, member: string, words: string) {
  const { id, status, problem } = await exec(kind, change);
  expect(status).toBe(422);
  expect(problem!.errors).toContainEqual({ pointer: `/values/${id}${member}`, detail: expect.stringContaining(words) });
}

async function expectTaken(kind: string, change: (entry: Record<string, any>) => void) {
  const { status, problem } = await exec(kind, change);
  expect(problem?.errors ?? []).toEqual([]);
  expect(status).toBe(200);
}

const DNS1035 = 'a DNS-1035 label must consist of lower case alphanumeric characters';

describe('what the API server refuses beyond its schema', () => {
  it('a Service named Bad_Name or 1web: a Service name is a DNS-1035 label', async () => {
    for (const name of ['Bad_Name', '1web'])
      await expectRefused('Service', (entry) => (entry.metadata.name = name), '/metadata/name', `Invalid value: "${name}": ${DNS1035}`);
  });

  it('a ClusterIP Service with no ports', async () => {
    await expectRefused('Service', (entry) => (entry.spec.ports = []), '/spec/ports', 'Required value');
  });

  it('two ports without names, two ports with one name, and one port twice', async () => {
    await expectRefused('Service', (entry) => (entry.spec.ports = [{ port: 80 }, { port: 81 }]), '/spec/ports/1/name', 'Required value');
    const named = [
      { name: 'web', port: 80 },
      { name: 'web', port: 81 },
    ];
    await expectRefused('Service', (entry) => (entry.spec.ports = named), '/spec/ports/1/name', 'Duplicate value: "web"');
    const twice = [
      { name: 'a', port: 80 },
      { name: 'b', port: 80 },
    ];
    await expectRefused('Service', (entry) => (entry.spec.ports = twice), '/spec/ports/1', 'Duplicate value: core.ServicePort{');
  });

  it('a ConfigMap with a 64-character label value, or a data key `bad key!`', async () => {
    await expectRefused(
      'ConfigMap',
      (entry) => (entry.metadata.labels = { app: 'x'.repeat(64) }),
      '/metadata/labels',
      'must be no more than 63 characters',
    );
    await expectRefused(
      'ConfigMap',
      (entry) => (entry.data = { 'bad key!': 'x' }),
      '/data/bad key!',
      `Invalid value: "bad key!": a valid config key must consist of alphanumeric characters, '-', '_' or '.'`,
    );
  });

  it('an Ingress path `api` with pathType Prefix', async () => {
    await expectRefused(
      'Ingress',
      (entry) => (entry.spec.rules[0].http.paths[0].path = 'api'),
      '/spec/rules/0/http/paths/0/path',
      'must be an absolute path',
    );
  });

  it('a PersistentVolumeClaim with no access modes and no storage request', async () => {
    const { id, status, problem } = await exec('PersistentVolumeClaim', (entry) => {
      entry.spec.accessModes = [];
      entry.spec.resources = { requests: {} };
    });
    expect(status).toBe(422);
    expect(problem!.errors).toEqual(
      expect.arrayContaining([
        {
          pointer: `/values/${id}/spec/accessModes`,
          detail: expect.stringContaining('Required value: at least 1 access mode is required'),
        },
        { pointer: `/values/${id}/spec/resources/requests/storage`, detail: expect.stringContaining('Required value') },
      ]),
    );
  });
});

describe('their valid neighbours', () => {
  it('every shipped example (an ExternalName and a headless Service among them)', async () => {
    for (const example of examplesIn()) {
      const response = await server.request(execPath(example.repository, example.collection), { method: 'POST', json: example.request });
      expect({ example: `${example.collection}/${example.name}`, status: response.status }).toEqual({
        example: `${example.collection}/${example.name}`,
        status: 200,
      });
    }
  });

  it('a headless Service without ports, and an ExternalName Service', async () => {
    await expectTaken('Service', (entry) => {
      entry.spec.clusterIP = 'None';
      delete entry.spec.ports;
    });
  });

  it('a 63-character label value and a 253-character ConfigMap name', async () => {
    await expectTaken('ConfigMap', (entry) => (entry.metadata.labels = { app: 'x'.repeat(63) }));
    const name = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(name).toHaveLength(253);
    await expectTaken('ConfigMap', (entry) => (entry.metadata.name = name));
  });
});

describe('what a probe found (each checked against test/oracle)', () => {
  it("a Service's clusterIP that is no IP is pointed at clusterIP, which the caller wrote", async () => {
    await expectRefused('Service', (entry) => (entry.spec.clusterIP = '10.96.0.256'), '/spec/clusterIP', 'must be a valid IP address');
  });

  it('a storage request with a trailing space is the quantity Go trims it to', async () => {
    await expectTaken('PersistentVolumeClaim', (entry) => (entry.spec.resources.requests.storage = '10Gi '));
  });

  it("1,000 owner references that all claim to be the controller: a 422, answered within the test's time", async () => {
    const ownerReferences = Array.from({ length: 1000 }, (_, i) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: `owner-${i}`,
      uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
      controller: true,
    }));
    const { status, problem } = await exec('ConfigMap', (entry) => (entry.metadata.ownerReferences = ownerReferences));
    expect(status).toBe(422);
    expect(problem!.errors![0]!.detail).toContain('Only one reference can have Controller set to true');
  });
});
