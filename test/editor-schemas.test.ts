import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileRepositories } from '../src/compiler/compile.js';
import { REQUEST_FILE_API_VERSION, REQUEST_KIND, BATCH_REQUEST_KIND } from '../src/request-file/request-file.js';
import { loadRepositories } from '../src/repository/load.js';
import {
  batchSchemaPath,
  LATEST,
  REPOSITORY_FORMAT_SCHEMAS,
  requestSchemaPath,
  SCHEMA_ID_PREFIX,
} from '../src/editor-schemas/editor-schemas.js';
import { SCHEMA_DRAFT } from '../src/schema/input-schema.js';
import { SCHEMAS_DIR } from '../src/bundle/dist-layout.js';
import { buildInto } from './helpers/build.js';
import { COMMITTED_SCHEMAS, filesUnder, readSchema, SchemaChecker } from './helpers/editor-schemas.js';
import { committedReleases, DEMO_REPOS, examplesIn, facetsOf, repoCopy, SHIPPED_REPOS } from './helpers/repos.js';

const checker = new SchemaChecker(COMMITTED_SCHEMAS);
const repositories = loadRepositories(SHIPPED_REPOS);
const identity = (repository: string) =>
  repositories.find((source) => source.name === repository)!.file.value as { vendor: string; apiVersion: string; release: string };
const pointers = (errors: Array<{ instancePath: string }>) => [...new Set(errors.map((error) => error.instancePath))];

/** Each shipped example with where its schemas lie: its repository's declared release, and the latest alias. */
const examples = examplesIn().map((example) => {
  const { vendor, apiVersion, release } = identity(example.repository);
  const at = (version: string, kind: 'request' | 'request-file') =>
    requestSchemaPath(vendor, example.repository, apiVersion, version, example.collection, kind);
  return { ...example, vendor, apiVersion, release, at };
});

const asRequestFile = (example: (typeof examples)[number], spec: Record<string, unknown> = {}) => ({
  apiVersion: REQUEST_FILE_API_VERSION,
  kind: REQUEST_KIND,
  metadata: { name: example.name },
  spec: { repository: example.repository, collection: example.collection, release: example.release, ...example.request, ...spec },
});

/** A facet name one letter off a real one: what a typo makes. */
const misspelt = (facet: string) => facet.slice(0, -1);
const addonOf = (request: Record<string, unknown>) => (request.facets as string[] | undefined)?.find((facet) => facet.startsWith('addon:'));

describe('editor schemas in dist/schemas/', () => {
  it("each has the $id of its path under dist/schemas/ and the input schemas' draft, compiles with ajv in strict mode, and refers only inside itself", () => {
    const files = filesUnder(COMMITTED_SCHEMAS);
    expect(files).toEqual(expect.arrayContaining(Object.values(REPOSITORY_FORMAT_SCHEMAS)));
    for (const file of files) {
      const schema = readSchema(path.join(COMMITTED_SCHEMAS, file));
      expect(schema.$id, file).toBe(SCHEMA_ID_PREFIX + file);
      expect(schema.$schema, file).toBe(SCHEMA_DRAFT);
      expect(JSON.stringify(schema).match(/"\$ref":"[^#][^"]*"/g), file).toBeNull();
      expect(() => checker.errors(file, {}), file).not.toThrow();
    }
  });

  it('accepts every shipped repository.json, collection.json and section file', () => {
    for (const repository of repositories) {
      expect(checker.errors(REPOSITORY_FORMAT_SCHEMAS.repository, repository.file.value), repository.file.path).toEqual([]);
      for (const collection of repository.collections) {
        expect(checker.errors(REPOSITORY_FORMAT_SCHEMAS.collection, collection.file.value), collection.file.path).toEqual([]);
        for (const section of collection.sections)
          expect(checker.errors(REPOSITORY_FORMAT_SCHEMAS.section, section.file.value), section.file.path).toEqual([]);
      }
    }
  });

  it('catches what lint catches in the repository format: a misspelt member, a wrong type, a malformed facet, an unknown $ member, a refused member name', async () => {
    const demo = loadRepositories(DEMO_REPOS)[0]!;
    const collection = demo.collections[0]!;
    const section = collection.sections[0]!;
    const relative = (file: string) => path.relative(DEMO_REPOS, file);
    const { release, ...repositoryRest } = demo.file.value as Record<string, unknown>;
    const { untyped: _untyped, ...collectionRest } = collection.file.value as Record<string, unknown>;
    const sectionValue = section.file.value as Record<string, unknown>;
    const planted: Array<[file: string, schema: string, value: Record<string, unknown>, pointer: string, lintSays: string]> = [
      [relative(demo.file.path), REPOSITORY_FORMAT_SCHEMAS.repository, { ...repositoryRest, relase: release }, '', 'relase'],
      [relative(collection.file.path), REPOSITORY_FORMAT_SCHEMAS.collection, { ...collectionRest, untyped: 'yes' }, '/untyped', 'untyped'],
      [
        relative(section.file.path),
        REPOSITORY_FORMAT_SCHEMAS.section,
        { ...sectionValue, facets: ['addon:Data'] },
        '/facets/0',
        'addon:Data',
      ],
      [
        relative(section.file.path).replace(/[^/]+\.json$/, 'planted.json'),
        REPOSITORY_FORMAT_SCHEMAS.section,
        { facets: ['addon:planted'], $descripton: 'typo', data: { planted: 'x' } },
        '/$descripton',
        '$descripton',
      ],
      [
        relative(section.file.path).replace(/[^/]+\.json$/, 'planted.json'),
        REPOSITORY_FORMAT_SCHEMAS.section,
        { facets: ['addon:planted'], data: { constructor: 'x' } },
        '/data',
        'constructor',
      ],
    ];
    for (const [file, schema, value, pointer] of planted) expect(pointers(checker.errors(schema, value)), file).toContain(pointer);
    // Lint says so too, each in its own copy so that no mistake hides another.
    for (const [file, , value, , lintSays] of planted) {
      const { report } = await compileRepositories(repoCopy(DEMO_REPOS, { [file]: JSON.stringify(value) }));
      expect(
        report
          .sorted()
          .filter((message) => message.file.endsWith(file))
          .map((message) => message.message)
          .join('\n'),
        file,
      ).toContain(lintSays);
    }
  });

  it('accepts every shipped example as an exec request body and wrapped as a Request file, of its release and of latest', () => {
    for (const example of examples) {
      const raw = repositories
        .find((source) => source.name === example.repository)!
        .collections.find((source) => source.name === example.collection)!
        .examples.find((named) => named.name === example.name)!.file.value;
      for (const version of [example.release, LATEST]) {
        expect(checker.errors(example.at(version, 'request'), raw), `${example.collection}/${example.name} ${version}`).toEqual([]);
        const file = asRequestFile(example, version === LATEST ? { release: undefined } : {});
        expect(
          checker.errors(example.at(version, 'request-file'), JSON.parse(JSON.stringify(file))),
          `${example.collection}/${example.name} ${version}`,
        ).toEqual([]);
      }
    }
  });

  it('refuses an unknown facet, a wrong value type and a misspelt member in an exec request body', () => {
    const example = examples.find((candidate) => addonOf(candidate.request) !== undefined)!;
    const facets = example.request.facets as string[];
    const [id] = Object.keys(example.request.values as object);
    const body = {
      ...example.request,
      facets: [...facets, misspelt(addonOf(example.request)!)],
      values: { [id!]: { metadata: { name: 5 } } },
      globalvar: {},
    };
    expect(pointers(checker.errors(example.at(LATEST, 'request'), body))).toEqual(
      expect.arrayContaining([`/facets/${facets.length}`, `/values/${id}/metadata/name`, '']),
    );
  });

  it("refuses a misspelt facet in a Request file, and a release other than the schema's", () => {
    const example = examples.find((candidate) => addonOf(candidate.request) !== undefined)!;
    const facets = (example.request.facets as string[]).map((facet) => (facet === addonOf(example.request) ? misspelt(facet) : facet));
    const index = facets.indexOf(misspelt(addonOf(example.request)!));
    expect(pointers(checker.errors(example.at(example.release, 'request-file'), asRequestFile(example, { facets })))).toContain(
      `/spec/facets/${index}`,
    );
    expect(
      pointers(
        checker.errors(example.at(example.release, 'request-file'), asRequestFile(example, { release: `${example.release}-other` })),
      ),
    ).toContain('/spec/release');
  });

  it("checks each batch resource's facets against its own collection and release", () => {
    const example = examples.find((candidate) => addonOf(candidate.request) !== undefined)!;
    // A facet of another collection that this one has in none of its sections, whichever sections authors add.
    const own = facetsOf(example);
    const other = examples.find(
      (candidate) =>
        candidate.collection !== example.collection &&
        addonOf(candidate.request) !== undefined &&
        !own.includes(addonOf(candidate.request)!),
    )!;
    const resource = { repository: example.repository, collection: example.collection, facets: example.request.facets };
    const batch = (resources: unknown[]) => ({ resources, values: example.request.values, globalvars: example.request.globalvars });
    const file = batchSchemaPath(example.vendor, 'request');
    expect(checker.errors(file, batch([resource, { ...resource, release: example.release }]))).toEqual([]);
    expect(
      checker.errors(batchSchemaPath(example.vendor, 'request-file'), {
        apiVersion: REQUEST_FILE_API_VERSION,
        kind: BATCH_REQUEST_KIND,
        metadata: { name: 'batch' },
        spec: batch([resource]),
      }),
    ).toEqual([]);
    const foreign = { ...resource, facets: [addonOf(other.request)] };
    expect(pointers(checker.errors(file, batch([resource, foreign])))).toContain('/resources/1/facets/0');
    expect(pointers(checker.errors(file, batch([{ ...resource, collection: misspelt(example.collection) }])))).toContain(
      '/resources/0/collection',
    );
    // Every committed release of the repository has its own rule: an unknown one is refused.
    expect(committedReleases(example.repository)).toContain(example.release);
    expect(pointers(checker.errors(file, batch([{ ...resource, release: '0.0.0-none' }])))).toContain('/resources/0/release');
  });

  it('are derived, not released: each build rewrites them, removes what no bundle makes, and leaves index.json alone', async () => {
    const dist = await buildInto(DEMO_REPOS);
    const stale = path.join(dist, SCHEMAS_DIR, 'facetform', 'stale.request.json');
    writeFileSync(stale, '{}');
    writeFileSync(path.join(dist, SCHEMAS_DIR, REPOSITORY_FORMAT_SCHEMAS.section), '{}');
    await buildInto(DEMO_REPOS, dist);
    expect(existsSync(stale)).toBe(false);
    expect(readFileSync(path.join(dist, SCHEMAS_DIR, REPOSITORY_FORMAT_SCHEMAS.section), 'utf8')).toBe(
      readFileSync(path.join(COMMITTED_SCHEMAS, REPOSITORY_FORMAT_SCHEMAS.section), 'utf8'),
    );
    const index = JSON.parse(readFileSync(path.join(dist, 'index.json'), 'utf8')) as { bundles: Array<{ path: string }> };
    expect(index.bundles.map((entry) => entry.path.split('/')[0])).not.toContain(SCHEMAS_DIR);
  });

  it('keep their folder: lint refuses a repository named like it', async () => {
    const copy = repoCopy(DEMO_REPOS);
    const [demo] = loadRepositories(copy);
    renameSync(demo!.dir, path.join(copy, SCHEMAS_DIR));
    const declaration = path.join(copy, SCHEMAS_DIR, 'repository.json');
    writeFileSync(declaration, JSON.stringify({ ...JSON.parse(readFileSync(declaration, 'utf8')), name: SCHEMAS_DIR }));
    const { report } = await compileRepositories(copy);
    expect(
      report
        .sorted()
        .filter((message) => message.severity === 'error')
        .map((message) => message.message),
    ).toEqual([expect.stringContaining(`may not be named "${SCHEMAS_DIR}"`)]);
  });
});
