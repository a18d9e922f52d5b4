/**
 * The latest release, asked three ways: with a prerelease newer than the latest plain release in
 * dist/, exec, discovery and the OpenAPI document all describe the plain release (docs/releases.md,
 * "Several versions served"). The prerelease gives a collection another description, so the OpenAPI document
 * shows which release it describes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInto } from '../helpers/build.js';
import { declaredRelease, removeFrom, repoCopy, repositoriesIn, SHIPPED_REPOS } from '../helpers/repos.js';
import { BASE, startTestServer, type TestServer } from '../helpers/server.js';

const [shipped, ...others] = repositoriesIn();
const REPOSITORY = shipped!.name;
const COLLECTION = shipped!.collections[0]!;
const RELEASED = declaredRelease(REPOSITORY);
// After x.y.z, x.(y+1).0-rc.1: above the release, and a description change is only a patch.
const [major, minor] = RELEASED.split('.').map(Number) as [number, number];
const PRERELEASE = `${major}.${minor + 1}.0-rc.1`;
const collectionPath = `${BASE}/${REPOSITORY}/v1/resources/collections/${COLLECTION}`;

/** A copy of repos/ with the one repository only, its collection.json and repository.json changed by `change`. */
function copyOf(change: (file: string, declaration: Record<string, unknown>) => Record<string, unknown>): string {
  const repos = repoCopy(SHIPPED_REPOS);
  for (const other of others) removeFrom(repos, other.name);
  for (const file of [`${REPOSITORY}/repository.json`, `${REPOSITORY}/${COLLECTION}/collection.json`]) {
    const full = path.join(repos, file);
    writeFileSync(full, JSON.stringify(change(file, JSON.parse(readFileSync(full, 'utf8'))), null, 2) + '\n');
  }
  return repos;
}

let server: TestServer;
let prereleaseDescription: string;
beforeAll(async () => {
  const dist = await buildInto(copyOf((_file, declaration) => declaration));
  await buildInto(
    copyOf((file, declaration) => {
      if (file.endsWith('repository.json')) return { ...declaration, release: PRERELEASE };
      prereleaseDescription = `${declaration.description} (prerelease)`;
      return { ...declaration, description: prereleaseDescription };
    }),
    dist,
  );
  server = await startTestServer({ dist });
}, 120_000);
afterAll(() => server?.close());

describe('with a prerelease newer than the latest release', () => {
  it('exec, discovery and the OpenAPI document all serve the latest plain release', async () => {
    type Listed = { repositories: Array<{ name: string; apiVersions: Array<{ latest: string; releases: string[] }> }> };
    const listed = (await (await server.request(BASE)).json()) as Listed;
    const versions = listed.repositories.find((repository) => repository.name === REPOSITORY)!.apiVersions[0]!;
    expect(versions.releases).toEqual([RELEASED, PRERELEASE]);
    expect(versions.latest).toBe(RELEASED);

    type Collection = { release: string; description: string; examples: Array<{ request: unknown }> };
    const seed = (await (await server.request(collectionPath)).json()) as Collection;
    expect(seed.release).toBe(RELEASED);
    const exec = await server.request(`${collectionPath}/exec`, { method: 'POST', json: seed.examples[0]!.request });
    expect(exec.status).toBe(200);
    expect(exec.headers.get('x-facetform-release')).toBe(RELEASED);

    // The prerelease really says something else, so the document shows which release it describes.
    const named = (await (await server.request(`${collectionPath}?release=${PRERELEASE}`)).json()) as { description: string };
    expect(named.description).toBe(prereleaseDescription);
    const document = (await (await server.request('/openapi.json')).json()) as { paths: Record<string, { post: { description: string } }> };
    const described = document.paths[`${collectionPath}/exec`]!.post.description;
    expect(described.startsWith(`${seed.description}\n`), described).toBe(true);
  });
});
