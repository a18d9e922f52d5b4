/**
 * README's table of mistakes caught (scripts/bench/mistakes.ts writes it) holds every case of
 * scripts/bench/mistake-cases/, and its facetform column is what the real server answers each case's
 * request over HTTP. The peers' columns are checked where Go is: the bench's run compares them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseCollection, missedCases, mistakeCases, readTable } from '../scripts/bench/mistake-cases.js';
import { loadBundles } from '../src/bundle/load.js';
import { BundleRegistry } from '../src/bundle/registry.js';
import { ROOT } from './helpers/repos.js';
import { execPath, startTestServer, type TestServer } from './helpers/server.js';

const table = readTable(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
const cases = mistakeCases();

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("README's table of mistakes caught", () => {
  it('has a row for every case, in the order of scripts/bench/mistake-cases/', () => {
    expect(table.map(({ rule, name }) => ({ rule, name }))).toEqual(cases.map(({ rule, name }) => ({ rule, name })));
  });

  it('covers every rule class of the native-validation issue, and a valid control per kind', () => {
    const rules = new Set(cases.map(({ rule }) => rule));
    for (const rule of ['names', 'labels', 'ports', 'keys', 'paths', 'modes', 'CRD versions', 'valid']) expect(rules).toContain(rule);
    const collections = new Set(cases.map(({ collection }) => collection));
    const controlled = new Set(cases.filter(({ rule }) => rule === 'valid').map(({ collection }) => collection));
    expect(controlled).toEqual(collections);
  });

  it.each(cases.map((entry, index) => ({ entry, row: table[index]!, name: entry.name })))(
    'facetform column, $name: what the server answers',
    async ({ entry, row }) => {
      const [repository, collection] = entry.collection.split('/') as [string, string];
      const response = await server.request(execPath(repository, collection), { method: 'POST', json: entry.request });
      await response.arrayBuffer();
      expect(response.status).toBe(row.verdicts.facetform === 'refused' ? 422 : 200);
    },
  );

  it("renders each case for the peers with the release the server answers the case's collection with", async () => {
    // The committed dist/ holds every release, as the bench's build does: the oldest is not the one served.
    const dist = path.join(ROOT, 'dist');
    const registry = new BundleRegistry(loadBundles(dist));
    const released = await startTestServer({ dist });
    try {
      for (const control of cases.filter(({ rule }) => rule === 'valid')) {
        const [repository, collection] = control.collection.split('/') as [string, string];
        const response = await released.request(execPath(repository, collection), { method: 'POST', json: control.request });
        await response.arrayBuffer();
        const served = response.headers.get('x-facetform-release');
        for (const entry of cases.filter((each) => each.collection === control.collection)) {
          const { release } = caseCollection(registry, entry).bundle.repository;
          expect({ case: entry.name, release }).toEqual({ case: entry.name, release: served });
        }
      }
    } finally {
      await released.close();
    }
  });

  it('shows facetform refusing every mistake a peer refuses, and every tool accepting the controls', () => {
    expect(missedCases(table)).toEqual([]);
  });
});
