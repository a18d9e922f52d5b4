/**
 * `npm run readme:collections`: writes the README's tables of what each collection writes, from the
 * bundles in dist/ (scripts/collection-tables.ts). Run it after a build that changed a collection;
 * test/readme-collections.test.ts fails until it is run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { collectionTables, withTables } from './collection-tables.js';

const root = path.resolve(import.meta.dirname, '..');
const readmeFile = path.join(root, 'README.md');
const readme = readFileSync(readmeFile, 'utf8');
const next = withTables(readme, collectionTables(path.join(root, 'dist')));
if (next === readme) console.log('README.md: the collection tables are up to date');
else {
  writeFileSync(readmeFile, next);
  console.log('README.md: the collection tables written from dist/');
}
