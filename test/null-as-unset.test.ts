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

describe('null as a map value is what Go decodes it to: "" (issue 41)', () => {
  it("takes null in labels, annotations, a ConfigMap's data, a Service's selector and a claim's matchLabels, and keeps it as written", async () => {
    const cases: Array<[string, (values: Record<string, any>) => void, string[]]> = [
      [
        'ConfigMap',
        (values) => {
          values.metadata.labels = { app: null };
          values.metadata.annotations = { 'example.com/owner': null };
          values.data = { ...values.data, EMPTY: null };
        },
        [],
      ],
      ['Service', (values) => (values.spec.selector = { app: null }), []],
      ['PersistentVolumeClaim', (values) => (values.spec.selector = { matchLabels: { tier: null } }), ['addon:selector']],
    ];
    for (const [kind, change, facets] of cases) {
      const found = collectionOfKind(kind);
      const { request } = seedWith(found, change);
      request.facets = [...(request.facets ?? []), ...facets];
      const response = await exec(found, { ...request, strict: true });
      expect([kind, response.status, response.status === 200 ? '' : await response.text()]).toEqual([kind, 200, '']);
      const manifest = (await response.json()) as Record<string, any>;
      if (kind === 'ConfigMap') {
        expect(manifest.metadata).toMatchObject({ labels: { app: null }, annotations: { 'example.com/owner': null } });
        expect(manifest.data).toHaveProperty('EMPTY', null);
      }
    }
  });

  it('still judges the key beside a null value as the API server does', async () => {
    const found = collectionOfKind('ConfigMap');
    const { request, id } = seedWith(found, (values) => {
      values.metadata.labels = { 'bad key!': null };
      values.data = { 'bad key!': null };
    });
    const problem = await problemOf(await exec(found, request));
    expect(problem.errors?.map((error) => error.pointer)).toEqual([`/values/${id}/data/bad key!`, `/values/${id}/metadata/labels`]);
  });
});

describe('null at a merge site is unset, as when its section stands alone (issue 41)', () => {
  const ingressClass = () => collectionOfKind('IngressClass');
  const withAnnotations = (annotations: unknown) => {
    const { request } = seedWith(ingressClass(), (values) => {
      values.metadata.annotations = annotations;
    });
    return { ...request, facets: ['master', 'addon:spec', 'addon:default', 'addon:annotations'] };
  };

  it("renders addon:default's annotation when the values give annotations: null", async () => {
    const response = await exec(ingressClass(), withAnnotations(null));
    expect(response.status).toBe(200);
    const manifest = (await response.json()) as { metadata: Record<string, unknown> };
    expect(manifest.metadata.annotations).toEqual({ 'ingressclass.kubernetes.io/is-default-class': 'true' });
  });

  it("lets a section fill a member the values give as null, and keeps the values' other members", async () => {
    const response = await exec(
      ingressClass(),
      withAnnotations({ 'ingressclass.kubernetes.io/is-default-class': null, 'example.com/owner': 'team' }),
    );
    expect(response.status).toBe(200);
    const manifest = (await response.json()) as { metadata: Record<string, unknown> };
    expect(manifest.metadata.annotations).toEqual({ 'ingressclass.kubernetes.io/is-default-class': 'true', 'example.com/owner': 'team' });
  });
});
