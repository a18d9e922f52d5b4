/**
 * `npm run readme:collections`: writes the generated parts of the documentation
 * (scripts/collection-tables.ts): docs/collections.md's tables of what each collection writes, from
 * the bundles in dist/, README.md's curl list of every collection, from repos/, and docs/server.md's
 * table of the settings, from their declarations (src/server/settings/). Run it after a build that
 * changed a collection, or a change of a setting; test/readme-collections.test.ts and
 * test/docs.test.ts fail until it is run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { settingsTable } from '../src/server/settings/text.js';
import { collectionTables, CURL_BEGIN, CURL_END, curlList, SETTINGS_BEGIN, SETTINGS_END, withGenerated } from './collection-tables.js';

const root = path.resolve(import.meta.dirname, '..');

/** Writes `file` with its generated part replaced, saying whether anything changed. */
function update(file: string, generate: (text: string) => string, what: string): void {
  const text = readFileSync(path.join(root, file), 'utf8');
  const next = generate(text);
  if (next === text) console.log(`${file}: ${what} up to date`);
  else {
    writeFileSync(path.join(root, file), next);
    console.log(`${file}: ${what} written`);
  }
}

update(
  'docs/collections.md',
  (text) => withGenerated(text, collectionTables(path.join(root, 'dist'))),
  'the collection tables (from dist/)',
);
update(
  'README.md',
  (text) => withGenerated(text, curlList(path.join(root, 'repos')), CURL_BEGIN, CURL_END, 'README.md'),
  'the curl list (from repos/)',
);
update(
  'docs/server.md',
  (text) => withGenerated(text, `${SETTINGS_BEGIN}\n${settingsTable()}${SETTINGS_END}`, SETTINGS_BEGIN, SETTINGS_END, 'docs/server.md'),
  'the settings table (from src/server/settings/)',
);
