/** The README's tables of what each collection writes are the ones the bundles in dist/ make (issue 33): never stale. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BEGIN, collectionTables, END } from '../scripts/collection-tables.js';
import { examplesIn, ROOT } from './helpers/repos.js';

describe("the README's collection tables", () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const tables = collectionTables(path.join(ROOT, 'dist'));

  it('are what dist/ holds (npm run readme:collections writes them)', () => {
    expect(readme.slice(readme.indexOf(BEGIN), readme.indexOf(END) + END.length)).toBe(tables);
  });

  it('name every collection of repos/', () => {
    for (const collection of new Set(examplesIn().map((example) => example.collection))) expect(tables).toContain(`| \`${collection}\` (`);
  });
});
