/** Several releases and API versions served side by side, and reloads under load. */
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reload } from '../../src/server/reload.js';
import { buildInto } from '../helpers/build.js';
import { DEMO_REPOS, removeFrom, repoCopy, tempDir } from '../helpers/repos.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const REPO = 'demo-resources';
const declaration = (release: string, apiVersion: string) =>
  JSON.stringify({ name: REPO, vendor: 'facetform', apiVersion, release, description: 'Demo.' });
const exec = (apiVersion: string, query = '') => `/apis/repos/facetform/${REPO}/${apiVersion}/resources/collections/settings/exec${query}`;
const BODY = { facets: ['addon:data'], values: { app: { metadata: { name: 'a' }, data: { A: '1' } } } };

let dist: string;
let server: TestServer;
beforeAll(async () => {
  // v1 1.0.0; v1 1.1.0 adds a section; v2 2.0.0 drops addon:data (breaking, so a new API version).
  dist = await buildInto(DEMO_REPOS);
  const added = repoCopy(DEMO_REPOS, {
    [`${REPO}/repository.json`]: declaration('1.1.0', 'v1'),
    [`${REPO}/settings/sections/immutable.json`]: JSON.stringify({
      $description: 'Immutable.',
      facets: ['addon:immutable'],
      immutable: '{{ __SET_ID__.immutable }}',
    }),
    [`${REPO}/settings/examples/immutable.json`]: JSON.stringify({
      facets: ['addon:immutable'],
      values: { app: { metadata: { name: 'a' }, immutable: true } },
    }),
  });
  await buildInto(added, dist);
  const v2 = repoCopy(added, {
    [`${REPO}/repository.json`]: declaration('2.0.0', 'v2'),
    [`${REPO}/settings/examples/basic.json`]: JSON.stringify({ values: { app: { metadata: { name: 'a' } } } }),
  });
  removeFrom(v2, `${REPO}/settings/sections/data.json`);
  await buildInto(v2, dist);
  server = await startTestServer({ dist });
}, 120_000);
afterAll(() => server.close());

describe('versions', () => {
  it('serve v1 and v2 of a repository on their own paths, each answer naming its release', async () => {
    const v1 = await server.request(exec('v1'), { method: 'POST', json: BODY });
    expect(v1.status).toBe(200);
    expect(v1.headers.get('x-facetform-release')).toBe('1.1.0');
    const v2 = await server.request(exec('v2'), { method: 'POST', json: { values: BODY.values } });
    expect(v2.status).toBe(200);
    expect(v2.headers.get('x-facetform-release')).toBe('2.0.0');
    const gone = await server.request(exec('v2'), { method: 'POST', json: BODY });
    expect(gone.status).toBe(422);
  });

  it('serve the latest release of an API version by default, and the one a caller names', async () => {
    const named = await server.request(exec('v1', '?release=1.0.0'), { method: 'POST', json: { ...BODY, facets: ['addon:immutable'] } });
    expect(named.status).toBe(422); // 1.0.0 had no addon:immutable
    const latest = await server.request(exec('v1'), {
      method: 'POST',
      json: { ...BODY, facets: ['addon:immutable'], values: { app: { metadata: { name: 'a' }, immutable: true } } },
    });
    expect(await latest.json()).toMatchObject({ immutable: true });
    const body = (await (await server.request('/apis/repos/facetform')).json()) as any;
    expect(body.repositories[0].apiVersions).toEqual([
      { apiVersion: 'v1', latest: '1.1.0', releases: ['1.0.0', '1.1.0'], href: `/apis/repos/facetform/${REPO}/v1/resources/collections` },
      { apiVersion: 'v2', latest: '2.0.0', releases: ['2.0.0'], href: `/apis/repos/facetform/${REPO}/v2/resources/collections` },
    ]);
  });

  it('reloads bundles under load with no failed request, and a corrupt bundle leaves the old ones serving', async () => {
    const live = tempDir();
    cpSync(dist, live, { recursive: true });
    let stop = false;
    const statuses: number[] = [];
    const worker = async () => {
      while (!stop) statuses.push((await server.request(exec('v1'), { method: 'POST', json: BODY })).status);
    };
    const workers = Array.from({ length: 10 }, worker);
    // After each reload, ten more answers: requests meet every reload however fast the machine is.
    const tenMoreAnswers = async () => {
      const before = statuses.length;
      while (statuses.length < before + 10) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    for (let round = 0; round < 10; round++) {
      expect((await reload(server.state, { distDir: live })).bundles).toBe('reloaded');
      await tenMoreAnswers();
    }
    writeFileSync(path.join(live, REPO, 'v1/1.1.0/bundle.json'), '{"truncated":');
    expect((await reload(server.state, { distDir: live })).bundles).toBe('kept');
    await tenMoreAnswers();
    stop = true;
    await Promise.all(workers);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(
      server.logs.some(
        (line) =>
          line.msg === 'reload: a bundle failed to load; the previous bundles keep serving' &&
          line.file === path.join(live, REPO, 'v1/1.1.0/bundle.json'),
      ),
    ).toBe(true);
  });
});
