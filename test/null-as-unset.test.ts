/**
 * Null for an optional member is unset (CONTRACT §5, issue 33): the API server decodes a built-in kind
 * with Go's decoder, which reads null as the member's zero value, so `metadata.creationTimestamp: null`
 * (as `kubectl create --dry-run=client -o yaml` writes it) and a claim's `storageClassName: null` are
 * taken. The answer keeps the null as written, as kubectl apply sends it. A required member stays
 * required: null there is refused. Collections, facets and values come from the shipped seeds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionOfKind, type ShippedCollection } from './helpers/repos.js';
import { execPath, problemOf, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** The seed's request of the collection rendering `kind`, its one values entry changed by `change`. */
function seedWith(found: ShippedCollection, change: (values: Record<string, any>) => void) {
  const request = structuredClone(found.seed);
  const [id] = Object.keys(request.values);
  change(request.values[id!]);
  return { request, id: id! };
}

async function exec(found: ShippedCollection, request: unknown) {
  return server.request(execPath(found.repository, found.collection), { method: 'POST', json: request });
}

describe('null for an optional member of a built-in kind is unset', () => {
  it('takes metadata.creationTimestamp: null, as kubectl create --dry-run=client -o yaml writes it, and keeps it', async () => {
    for (const kind of ['ConfigMap', 'Service', 'PersistentVolumeClaim']) {
      const found = collectionOfKind(kind);
      const { request } = seedWith(found, (values) => {
        values.metadata.creationTimestamp = null;
      });
      const response = await exec(found, request);
      expect([kind, response.status]).toEqual([kind, 200]);
      const manifest = (await response.json()) as { metadata: Record<string, unknown> };
      expect(manifest.metadata).toHaveProperty('creationTimestamp', null);
    }
  });

  it("takes a claim's spec.storageClassName: null (the API server reads it as unset) and renders it as written", async () => {
    const found = collectionOfKind('PersistentVolumeClaim');
    const { request } = seedWith(found, (values) => {
      values.metadata.creationTimestamp = null;
      values.spec.storageClassName = null;
    });
    const response = await exec(found, { ...request, strict: true });
    expect(response.status).toBe(200);
    const manifest = (await response.json()) as { spec: Record<string, unknown> };
    expect(manifest.spec).toHaveProperty('storageClassName', null);
    const yaml = await server.request(`${execPath(found.repository, found.collection)}?format=yaml`, { method: 'POST', json: request });
    expect(yaml.status).toBe(200);
    expect(await yaml.text()).toMatch(/^ {2}storageClassName: null$/m);
  });

  it('refuses null for a required member: metadata.name', async () => {
    const found = collectionOfKind('ConfigMap');
    const { request, id } = seedWith(found, (values) => {
      values.metadata.name = null;
      values.metadata.creationTimestamp = null;
    });
    const response = await exec(found, request);
    expect(response.status).toBe(422);
    const problem = await problemOf(response);
    expect(problem.errors?.map((error) => error.pointer)).toEqual([`/values/${id}/metadata/name`]);
  });

  it("refuses null for a member its Kubernetes type requires: a Service port's port", async () => {
    const found = collectionOfKind('Service');
    const { request, id } = seedWith(found, (values) => {
      values.spec.ports[0].port = null;
      values.spec.ports[0].name = null; // optional: unset
    });
    const response = await exec(found, request);
    expect(response.status).toBe(422);
    const problem = await problemOf(response);
    expect(problem.errors?.map((error) => error.pointer)).toEqual([`/values/${id}/spec/ports/0/port`]);
  });
});
