/**
 * The collections added in the 1.1.0 releases, served from the committed dist/: their exec paths,
 * the releases before them still served when named, and Secret values kept out of logs and errors.
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkManifest } from '../../src/manifest/kube-check.js';
import { declaredRelease, ROOT } from '../helpers/repos.js';
import { execPath, problemOf, startTestServer, type TestServer } from '../helpers/server.js';

const DIST = path.join(ROOT, 'dist');
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ dist: DIST });
});
afterAll(() => server.close());

const seed = (repository: string, collection: string) => {
  const { $description: _, ...request } = JSON.parse(
    readFileSync(path.join(ROOT, 'repos', repository, collection, 'examples/seed.json'), 'utf8'),
  );
  return request;
};

describe('collections added in 1.1.0', () => {
  it('render their examples on the three new exec paths to manifests kubernetes-models accepts', async () => {
    for (const [repository, collection, kind] of [
      ['config-and-storage-resources', 'persistent-volume', 'PersistentVolume'],
      ['config-and-storage-resources', 'secret', 'Secret'],
      ['service-resources', 'ingressclass', 'IngressClass'],
    ] as const) {
      const response = await server.request(execPath(repository, collection), { method: 'POST', json: seed(repository, collection) });
      expect(response.status, collection).toBe(200);
      expect(response.headers.get('x-facetform-release')).toBe(declaredRelease(repository));
      const manifest = (await response.json()) as any;
      expect(manifest.kind).toBe(kind);
      expect(await checkManifest(manifest)).toEqual({ checked: true, errors: [] });
    }
  });

  it('keep the previous releases in dist/ and serve them when named', async () => {
    const index = JSON.parse(readFileSync(path.join(DIST, 'index.json'), 'utf8'));
    // Released bundles stay in dist/ for good, whatever is released after them.
    expect(index.bundles.map((entry: { path: string }) => entry.path)).toEqual(
      expect.arrayContaining([
        'config-and-storage-resources/v1/1.0.0/bundle.json',
        'config-and-storage-resources/v1/1.1.0/bundle.json',
        'extend-resources/v1/1.0.0/bundle.json',
        'service-resources/v1/1.0.0/bundle.json',
        'service-resources/v1/1.1.0/bundle.json',
      ]),
    );
    const old = await server.request(execPath('service-resources', 'service') + '?release=1.0.0', {
      method: 'POST',
      json: seed('service-resources', 'service'),
    });
    expect(old.status).toBe(200);
    expect(old.headers.get('x-facetform-release')).toBe('1.0.0');
    const latest = await server.request(execPath('service-resources', 'service'), {
      method: 'POST',
      json: seed('service-resources', 'service'),
    });
    expect(latest.headers.get('x-facetform-release')).toBe(declaredRelease('service-resources'));
    expect(await old.text()).toBe(await latest.text());
    const before = await problemOf(
      await server.request(execPath('service-resources', 'ingressclass') + '?release=1.0.0', {
        method: 'POST',
        json: seed('service-resources', 'ingressclass'),
      }),
    );
    // What 1.0.0 holds, read from its committed bundle.
    const released = JSON.parse(readFileSync(path.join(DIST, 'service-resources/v1/1.0.0/bundle.json'), 'utf8')).collections;
    expect(before).toMatchObject({
      status: 404,
      detail: `no collection "ingressclass"; known: ${released.map(({ name }: { name: string }) => name).join(', ')}`,
    });
  });

  it('check Secret data as base64, and never show a secret value in an answer or the log', async () => {
    const secrets = ['hunter2-MARKER-7f3a', Buffer.from('base64-MARKER-91c2').toString('base64'), 'not base64 MARKER-0d4e!'];
    const body = {
      facets: ['addon:type', 'addon:data', 'addon:stringdata'],
      values: {
        s: { metadata: { name: 's' }, type: 'Opaque', stringData: { password: secrets[0] }, data: { good: secrets[1], bad: secrets[2] } },
      },
    };
    const problem = await problemOf(
      await server.request(execPath('config-and-storage-resources', 'secret'), { method: 'POST', json: body }),
    );
    expect(problem.errors).toEqual([{ pointer: '/values/s/data/bad', detail: 'must be base64-encoded' }]);
    for (const value of secrets) expect(JSON.stringify(problem)).not.toContain(value);

    delete (body.values.s.data as Record<string, string>).bad;
    const ok = await server.request(execPath('config-and-storage-resources', 'secret') + '?format=yaml', { method: 'POST', json: body });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const malformed = await server.request(execPath('config-and-storage-resources', 'secret'), {
      method: 'POST',
      body: `{"values":{"s":{"stringData":{"p":"${secrets[0]}"}}}`,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(await malformed.text()).not.toContain(secrets[0]);

    const log = JSON.stringify(server.logs);
    for (const value of secrets) expect(log).not.toContain(value);
    expect(server.logs.filter((line) => line.msg === 'request').length).toBeGreaterThanOrEqual(3);
  });
});
