/**
 * Quantities whose exponent runs to 100,000 digits. Go keeps such a value as an inf.Dec
 * with that many digits; ours keeps the digits the text has, so a batch of claims reading one such
 * value is judged at once and /healthz answers meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionOfKind, facetsWriting } from '../helpers/repos.js';
import { problemOf, startTestServer, type TestServer } from '../helpers/server.js';

const BATCH = '/apis/repos/facetform/exec';
// The claim collection of repos/, and the facets whose sections write its access modes and requests.
const found = collectionOfKind('PersistentVolumeClaim');
const facets = [...new Set([...facetsWriting(found, 'spec.accessModes'), ...facetsWriting(found, 'spec.resources')])];
const claim = { repository: found.repository, collection: found.collection, facets };
const batchOf = (storage: string) => ({
  resources: [claim, claim, claim, claim],
  values: {
    data: {
      metadata: { name: 'data', namespace: 'shop' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } },
    },
  },
  globalvars: { [found.variable]: 'data' },
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('a batch of claims reading one huge quantity', () => {
  it('refuses -1234567890123456789e99999 as the API server does, /healthz answering meanwhile', async () => {
    const pending = server.request(BATCH, { method: 'POST', json: batchOf('-1234567890123456789e99999') });
    const health = await server.request('/healthz');
    const problem = await problemOf(await pending);
    expect(health.status).toBe(200);
    // The four claims read one entry: one problem, at the member of the request.
    expect(problem.errors).toEqual([
      {
        pointer: '/values/data/spec/resources/requests/storage',
        detail:
          'Invalid value: "-1234567890123456789e99999": must be greater than zero: Kubernetes refuses it at /spec/resources/requests/storage of the PersistentVolumeClaim',
      },
    ]);
  });

  it.each(['1234567890123456789e100001', '1e-100001'])('accepts %s, which Go parses', async (storage) => {
    const response = await server.request(BATCH, { method: 'POST', json: batchOf(storage) });
    expect(response.status).toBe(200);
    const list = (await response.json()) as { items: Array<{ spec: { resources: { requests: { storage: string } } } }> };
    expect(list.items.map((item) => item.spec.resources.requests.storage)).toEqual([storage, storage, storage, storage]);
  });
});
