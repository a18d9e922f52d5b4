/**
 * Hand-checked goldens: documented requests rendered by the real server over HTTP and compared with a
 * manifest written by hand from the documents (test/golden/hand-checked/, each file says where its
 * request comes from and which rules of the contract give its manifest).
 *
 * The contract and the seed document live outside this repository (a fresh clone in CI has neither),
 * and neither writes out a manifest, so the expected manifests are fixtures here rather than parsed from
 * the .md files. The requests are read where they are documented at test time (the shipped seed
 * examples, which CONTRACT.md §8 says are the seed's usage examples, and the Examples section of docs/authoring.md),
 * so editing a documented request without checking its manifest again fails here.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers/repos.js';
import { execPath, startTestServer, type TestServer } from './helpers/server.js';

interface HandChecked {
  repository: string;
  collection: string;
  /** A repository-relative file holding the request, or `docs/authoring.md#examples` for the example request of that page. */
  request: string;
  manifest: Record<string, unknown>;
}

const FIXTURES = path.join(import.meta.dirname, 'golden/hand-checked');
const fixtures = readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => [file, JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as HandChecked] as const);
// The seven collections the seed document (render-service.md §2) describes, each with a usage example.
const SEED_COLLECTIONS = [
  'service',
  'ingress',
  'endpoints',
  'storageclass',
  'persistent-volume-claim',
  'configmap',
  'customresourcedefinition',
];
// Member order is part of the contract (§6): compare texts, which keep it; the indentation is the test's own.
const text = (manifest: unknown) => JSON.stringify(manifest, null, 2) + '\n';

/** The request a fixture names, without the authors' `$description`, read from the document that shows it. */
function documentedRequest(source: string): Record<string, unknown> {
  const json = source === 'docs/authoring.md#examples' ? documentedExampleRequest() : readFileSync(path.join(ROOT, source), 'utf8');
  const { $description: _, ...request } = JSON.parse(json) as Record<string, unknown>;
  return request;
}

/** The first ```json block of docs/authoring.md's "## Examples" section. */
function documentedExampleRequest(): string {
  const page = readFileSync(path.join(ROOT, 'docs/authoring.md'), 'utf8');
  const section = page.slice(page.indexOf('\n## Examples\n'));
  const block = /```json\n([\s\S]*?)```/.exec(section);
  if (!page.includes('\n## Examples\n') || block === null) {
    throw new Error('docs/authoring.md has no "## Examples" section with a ```json request');
  }
  return block[1]!;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('documented requests render their hand-checked manifests', () => {
  it('has a hand-checked golden for the usage example of each collection of the seed', () => {
    const isSeed = (fixture: HandChecked) => fixture.request === `repos/${fixture.repository}/${fixture.collection}/examples/seed.json`;
    const seeds = fixtures.filter(([, fixture]) => isSeed(fixture));
    expect(seeds.map(([, fixture]) => fixture.collection).sort()).toEqual([...SEED_COLLECTIONS].sort());
  });

  it.each(fixtures)('%s: the server answers the manifest written by hand, members in the same order', async (_, fixture) => {
    const json = documentedRequest(fixture.request);
    const response = await server.request(execPath(fixture.repository, fixture.collection), { method: 'POST', json });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(text(await response.json())).toBe(text(fixture.manifest));
  });
});
