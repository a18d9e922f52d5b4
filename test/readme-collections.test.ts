/**
 * The generated parts of the documentation are what they are made from, never stale
 * (scripts/collection-tables.ts; `npm run readme:collections` writes them): docs/collections.md's
 * tables of what each collection writes, from the bundles in dist/, and README.md's curl list of every
 * collection, from repos/.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectionTables, CURL_BEGIN, CURL_END, curlList, generatedPart } from '../scripts/collection-tables.js';
import { examplesIn, repositoriesIn, ROOT, SHIPPED_REPOS } from './helpers/repos.js';

describe("docs/collections.md's collection tables", () => {
  const page = readFileSync(path.join(ROOT, 'docs/collections.md'), 'utf8');
  const tables = collectionTables(path.join(ROOT, 'dist'));

  it('are what dist/ holds (npm run readme:collections writes them)', () => {
    expect(generatedPart(page)).toBe(tables);
  });

  it('name every collection of repos/', () => {
    for (const collection of new Set(examplesIn().map((example) => example.collection))) expect(tables).toContain(`| \`${collection}\` (`);
  });
});

describe("README.md's curl list", () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const list = generatedPart(readme, CURL_BEGIN, CURL_END);

  it('is what repos/ holds (npm run readme:collections writes it)', () => {
    expect(list).toBe(curlList(SHIPPED_REPOS));
  });

  it('posts the seed example of every collection of repos/, once each', () => {
    const posted = [...list.matchAll(/^post (\S+) (\S+) +\| kubectl apply -f -$/gm)].map(
      ([, repository, collection]) => `${repository}/${collection}`,
    );
    const shipped = repositoriesIn().flatMap((repository) =>
      repository.collections.map((collection) => `${repository.name}/${collection}`),
    );
    expect(posted.sort()).toEqual(shipped.sort());
  });
});
