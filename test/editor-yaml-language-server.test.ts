/** What an editor shows: the real yaml-language-server checking request files against the committed editor schemas. */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { REQUEST_FILE_API_VERSION, REQUEST_KIND } from '../src/request-file/request-file.js';
import { LATEST, REPOSITORY_FORMAT_SCHEMAS, requestSchemaPath } from '../src/editor-schemas/editor-schemas.js';
import { COMMITTED_SCHEMAS } from './helpers/editor-schemas.js';
import { examplesIn, SHIPPED_REPOS } from './helpers/repos.js';
import { loadRepositories } from '../src/repository/load.js';
import { YamlLanguageServer } from './helpers/yaml-language-server.js';

let server: YamlLanguageServer;
beforeAll(async () => {
  server = await YamlLanguageServer.start();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

/** A shipped example that adds a facet besides master, as a Request file with a modeline naming its latest schema (a file URL, or `relativeTo` a folder). */
function requestFile(facets?: (facets: string[]) => string[], relativeTo?: string): { text: string; facet: string } {
  const example = examplesIn().find((candidate) =>
    (candidate.request.facets as string[] | undefined)?.some((facet) => facet.startsWith('addon:')),
  )!;
  const { vendor, apiVersion } = loadRepositories(SHIPPED_REPOS, [example.repository])[0]!.file.value as {
    vendor: string;
    apiVersion: string;
  };
  const file = path.join(
    COMMITTED_SCHEMAS,
    requestSchemaPath(vendor, example.repository, apiVersion, LATEST, example.collection, 'request-file'),
  );
  const schema = relativeTo === undefined ? pathToFileURL(file).href : path.relative(relativeTo, file);
  const shown = (facets ?? ((same) => same))(example.request.facets as string[]);
  const request = {
    apiVersion: REQUEST_FILE_API_VERSION,
    kind: REQUEST_KIND,
    metadata: { name: example.name },
    spec: { repository: example.repository, collection: example.collection, ...example.request, facets: shown },
  };
  return {
    text: `# yaml-language-server: $schema=${schema}\n${stringify(request)}`,
    facet: shown.find((facet) => facet.startsWith('addon:'))!,
  };
}

/** Where the opened documents say they are (they are never written): beside dist/. */
const DOCUMENTS = path.join(COMMITTED_SCHEMAS, '../../requests');
let opened = 0;
const open = (text: string) => server.open(pathToFileURL(path.join(DOCUMENTS, `request-${++opened}.yaml`)).href, text);
const misspelling = (facets: string[]) => facets.map((name) => (name.startsWith('addon:') ? `${name}x` : name));

describe('yaml-language-server with the editor schemas', () => {
  it('flags a misspelt facet in a request file at its line, naming the facets there are', async () => {
    const { text, facet } = requestFile(misspelling);
    const line = text.split('\n').findIndex((candidate) => candidate.includes(facet));
    const diagnostics = await open(text);
    expect(diagnostics.map((diagnostic) => diagnostic.range.start.line)).toContain(line);
    const atFacet = diagnostics.find((diagnostic) => diagnostic.range.start.line === line)!;
    expect(atFacet.message).toContain(JSON.stringify(facet.slice(0, -1)));
  }, 60_000);

  it('finds nothing wrong in a correct request file', async () => {
    expect(await open(requestFile().text)).toEqual([]);
  }, 60_000);

  it('reads a modeline path relative to the request file, as docs/authoring.md shows', async () => {
    expect(await open(requestFile(undefined, DOCUMENTS).text)).toEqual([]);
    expect((await open(requestFile(misspelling, DOCUMENTS).text)).length).toBeGreaterThan(0);
  }, 60_000);

  it('flags a malformed facet and an unknown $ member in a section file (JSON is YAML) at their lines', async () => {
    const section = loadRepositories(SHIPPED_REPOS)[0]!.collections[0]!.sections[0]!.file.value as Record<string, unknown>;
    const schema = pathToFileURL(path.join(COMMITTED_SCHEMAS, REPOSITORY_FORMAT_SCHEMAS.section)).href;
    const planted = { ...section, facets: ['addon:Upper'], $descripton: 'typo' };
    const text = `# yaml-language-server: $schema=${schema}\n${JSON.stringify(planted, null, 2)}\n`;
    const lines = text.split('\n');
    const diagnostics = await open(text);
    expect(diagnostics.map((diagnostic) => diagnostic.range.start.line).sort()).toEqual(
      [lines.findIndex((line) => line.includes('addon:Upper')), lines.findIndex((line) => line.includes('$descripton'))].sort(),
    );
    expect(await open(`# yaml-language-server: $schema=${schema}\n${JSON.stringify(section, null, 2)}\n`)).toEqual([]);
  }, 60_000);
});
