/**
 * Generated manifests of each built-in kind a shipped collection renders come back exactly through
 * it, over HTTP. The manifests are test/apiserver's valid ones, which Kubernetes' own
 * validation accepts (`npm run test:oracle` judges them); the request is what a caller holding such a
 * manifest sends: its members as the values, and the facets, read from discovery, of the sections
 * that read a member it has. One of them sets every member a user writes of the kind
 * (test/helpers/kind-members.ts) that a manifest can have at once: a PersistentVolume has one volume
 * source, so each source is set by some other manifest.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATORS } from './apiserver/arbitraries.js';
import { seedFor } from './apiserver/run.js';
import { kindKey } from './apiserver/shipped.js';
import { holds, isBuiltInKind, oneOfMembers, writableMembers } from './helpers/kind-members.js';
import { repositoriesIn } from './helpers/repos.js';
import { BASE, startTestServer, type TestServer } from './helpers/server.js';

/** Manifests per kind: enough that each member turns up (a volume source is one of 19). */
const SAMPLES = 400;
const SEED = 20261127;
const ID = 'generated';

interface DiscoveredSection {
  name: string;
  facets: string[];
  inputs: string[];
}
interface DiscoveredCollection {
  name: string;
  kind: string;
  apiVersion: string;
  variable: string;
  sections: DiscoveredSection[];
  links: { exec: string };
}

/**
 * The facets to ask for: for each section (besides the masters) that reads a member the values have,
 * its facet that selects the fewest sections. A section that comes along reads no member the values
 * have, so it renders nothing unless it writes members of its own, which the exact comparison would show.
 */
function facetsFor(collection: DiscoveredCollection, values: unknown): string[] {
  const needed = collection.sections.filter(
    (section) => !section.facets.includes('master') && section.inputs.some((input) => holds(values, input)),
  );
  const selects = (facet: string) => collection.sections.filter((section) => section.facets.includes(facet)).length;
  return [
    ...new Set(needed.map((section) => [...section.facets].sort((a, b) => selects(a) - selects(b) || a.localeCompare(b))[0]!)),
  ].sort();
}

let server: TestServer;
const discovered: DiscoveredCollection[] = [];

beforeAll(async () => {
  server = await startTestServer();
  for (const { name } of repositoriesIn()) {
    const repository = (await (await server.request(`${BASE}/${name}/v1/resources/collections`)).json()) as {
      collections: Array<{ kind: string; apiVersion: string; href: string }>;
    };
    for (const listed of repository.collections.filter((c) => isBuiltInKind(c.apiVersion, c.kind))) {
      discovered.push((await (await server.request(listed.href)).json()) as DiscoveredCollection);
    }
  }
});
afterAll(() => server?.close());

describe('a generated manifest of each built-in kind', () => {
  it('is rendered by some shipped collection of every built-in kind a generator makes', () => {
    const kinds = new Set(discovered.map((c) => kindKey(c.apiVersion, c.kind)));
    expect(kinds.size).toBeGreaterThan(0);
    for (const kind of kinds) expect(GENERATORS.has(kind), `a generator in test/apiserver/arbitraries.ts for ${kind}`).toBe(true);
  });

  it('comes back exactly through its collection, facets chosen from discovery, and the manifests set every writable member', async () => {
    for (const collection of discovered) {
      const generator = GENERATORS.get(kindKey(collection.apiVersion, collection.kind))!;
      const manifests = fc.sample(generator.valid, { numRuns: SAMPLES, seed: seedFor(SEED, collection.kind) });
      for (const [index, manifest] of manifests.entries()) {
        const { apiVersion: _, kind: __, ...members } = manifest;
        const request = { facets: facetsFor(collection, members), values: { [ID]: members }, globalvars: { [collection.variable]: ID } };
        const response = await server.request(`${collection.links.exec}?format=json`, { method: 'POST', json: request });
        const body = await response.json();
        const where = `${collection.name}, manifest ${index} of seed ${SEED}: ${JSON.stringify(request)}`;
        expect(response.status, `${where}\n${JSON.stringify(body)}`).toBe(200);
        expect(body, where).toEqual(manifest);
      }
      const members = writableMembers(collection.apiVersion, collection.kind);
      const unset = members.filter((member) => !manifests.some((manifest) => holds(manifest, member)));
      expect(unset, `members of ${collection.kind} no generated manifest sets: add them to its valid generator in test/apiserver`).toEqual(
        [],
      );
      // One manifest sets every member the kind takes at once: all but the other volume sources of a PersistentVolume.
      const oneOf = oneOfMembers(collection.apiVersion, collection.kind);
      const together = members.length - Math.max(0, oneOf.length - 1);
      const most = Math.max(...manifests.map((manifest) => members.filter((member) => holds(manifest, member)).length));
      expect(
        most,
        `members of ${collection.kind} one generated manifest sets at most (of ${members.length}; ${oneOf.length} are one-of)`,
      ).toBe(together);
      console.log(`${collection.name}: ${manifests.length} manifests rendered exactly; one sets ${most} of ${members.length} members`);
    }
  }, 120_000);
});
