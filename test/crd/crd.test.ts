/** Reading a CRD file (YAML with positions) and checking it as the API server would take it. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrdCatalog, readCrd, servedKinds } from '../../src/crd/crd.js';
import { SourceFile } from '../../src/repository/source-file.js';
import { fromPointer } from '../../src/util/json.js';

const FIXTURE = path.join(import.meta.dirname, '../fixtures/crds/databases.yaml');
const fixture = () => new SourceFile(FIXTURE).value as any;

describe('a CRD file', () => {
  it('is read from YAML with a line and column for every member', () => {
    const file = new SourceFile(FIXTURE);
    expect(file.syntaxErrors).toEqual([]);
    expect(file.value).toMatchObject({ kind: 'CustomResourceDefinition', spec: { names: { kind: 'Database' } } });
    expect(file.locate(['spec', 'group'])).toEqual({ line: 7, column: 3 });
    expect(file.locate(['spec', 'versions', 1, 'name'])).toEqual({ line: 22, column: 7 });
    // A pointer a problem names, past what the file has, lands on the deepest member it has.
    expect(file.locate(fromPointer('/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/port/type'))).toEqual({
      line: 64,
      column: 17,
    });
  });

  it('says where YAML is broken, and that a file holds one document', () => {
    expect(new SourceFile('bad.yaml', 'a: b: c\n').syntaxErrors[0]).toMatchObject({
      line: 1,
      message: expect.stringMatching(/^invalid YAML: /),
    });
    expect(new SourceFile('two.yaml', 'a: 1\n---\nb: 2\n').syntaxErrors).toEqual([
      { line: 2, column: 1, message: 'invalid YAML: one document per file (this file has several)' },
    ]);
    // As kubectl reads YAML: a closing `---` is no second document, 1.1 booleans, `<<` merges.
    expect(new SourceFile('closed.yaml', '---\na: 1\n---\n').syntaxErrors).toEqual([]);
    expect(new SourceFile('yaml11.yaml', 'n: 1\nbase: &b {x: 1}\nmerged: {<<: *b, z: 2}\n').value).toEqual({
      false: 1,
      base: { x: 1 },
      merged: { x: 1, z: 2 },
    });
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 8 },
        (_, index) =>
          `${String.fromCharCode(98 + index)}: &${String.fromCharCode(98 + index)} [${Array(10)
            .fill(`*${String.fromCharCode(97 + index)}`)
            .join(', ')}]`,
      ),
    ].join('\n');
    expect(new SourceFile('bomb.yaml', bomb).syntaxErrors[0]).toMatchObject({ message: expect.stringMatching(/^invalid YAML: .*alias/i) });
    expect(new SourceFile('empty.yml', '').syntaxErrors[0]!.message).toBe('invalid YAML: the file is empty');
  });

  it('serves its served versions: group/version and kind', () => {
    const { crd, problems } = readCrd(fixture());
    expect(problems).toEqual([]);
    expect(crd).toMatchObject({
      name: 'databases.platform.example.com',
      group: 'platform.example.com',
      kind: 'Database',
      plural: 'databases',
      scope: 'Namespaced',
    });
    expect(servedKinds(crd!).map(({ apiVersion, kind }) => `${apiVersion} ${kind}`)).toEqual(['platform.example.com/v1 Database']);
    expect(crd!.versions[1]!.schemaPointer).toBe('/spec/versions/1/schema/openAPIV3Schema');
  });

  it('is found by apiVersion and kind in a catalog, which names two CRDs serving one kind', () => {
    const { crd } = readCrd(fixture());
    const catalog = new CrdCatalog([
      { crd: crd!, source: 'a.yaml' },
      { crd: crd!, source: 'b.yaml' },
    ]);
    expect(catalog.find('platform.example.com/v1', 'Database')).toMatchObject({ source: 'a.yaml', version: { name: 'v1' } });
    expect(catalog.find('platform.example.com/v1alpha1', 'Database')).toBeUndefined();
    expect(catalog.kinds()).toEqual([{ apiVersion: 'platform.example.com/v1', kind: 'Database' }]);
    expect(catalog.conflicts).toEqual([{ apiVersion: 'platform.example.com/v1', kind: 'Database', source: 'b.yaml', taken: 'a.yaml' }]);
  });

  it("is checked against the Kubernetes API's own schema", () => {
    const crd = fixture();
    crd.spec.versions[1].served = 'yes';
    delete crd.spec.scope;
    const { problems } = readCrd(crd);
    expect(problems.map((problem) => [problem.pointer, problem.message])).toEqual([
      ['/spec/scope', '/spec/scope is required'],
      ['/spec/versions/1/served', '/spec/versions/1/served must be boolean'],
    ]);
  });

  it('has exactly one storage version, a schema per version and a name made of plural and group', () => {
    const crd = fixture();
    crd.metadata.name = 'databases';
    crd.spec.versions[0].storage = true;
    delete crd.spec.versions[0].schema;
    const { crd: read, problems } = readCrd(crd);
    // In the API server's words (test/oracle says the same), with lint's fix where it knows one.
    expect(problems.map((problem) => problem.pointer)).toEqual([
      '/metadata/name',
      '/spec/versions/0/schema/openAPIV3Schema',
      '/spec/versions',
      // Go's status.storedVersions: the storage flags the caller wrote decide it.
      '/spec/versions',
    ]);
    expect(problems[0]!.message).toBe('/metadata/name Invalid value: "databases": must be spec.names.plural+"."+spec.group');
    expect(problems[0]!.fix).toBe('write "name": "databases.platform.example.com"');
    expect(problems[1]!.message).toBe('/spec/versions/0/schema/openAPIV3Schema Required value: schemas are required');
    expect(problems[2]!.message).toMatch(/: must have exactly one version marked as storage version$/);
    expect(problems[2]!.fix).toBe('set storage: true on the version the cluster stores, and false on the others');
    // Still a CRD: its served version can be typed while lint reports the rest.
    expect(read?.versions.map((version) => version.name)).toEqual(['v1']);
  });

  it('is not another kind, nor the removed v1beta1', () => {
    expect(readCrd({ apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'CustomResourceDefinition' })).toEqual({
      crd: undefined,
      problems: [
        {
          pointer: '/apiVersion',
          message:
            'not a apiextensions.k8s.io/v1 CustomResourceDefinition: apiVersion "apiextensions.k8s.io/v1beta1", kind "CustomResourceDefinition"',
          fix: 'apiextensions.k8s.io/v1beta1 left Kubernetes in 1.22: convert the file to v1 (one schema per version)',
        },
      ],
    });
    expect(readCrd([]).problems[0]!.message).toBe('a CustomResourceDefinition must be an object');
  });

  it('takes the JSON form as well', () => {
    const json = JSON.stringify(fixture(), null, 2);
    const file = new SourceFile('databases.json', json);
    expect(readCrd(file.value).problems).toEqual([]);
    expect(file.locate(['spec', 'group']).line).toBe(json.split('\n').findIndex((line) => line.includes('"group"')) + 1);
    expect(readFileSync(FIXTURE, 'utf8')).toContain('kind: Database');
  });
});

describe('a lint problem of a CRD file', () => {
  it('points at the line and column of the YAML node it is about', () => {
    const text = readFileSync(FIXTURE, 'utf8')
      .replace('                port:\n                  x-kubernetes-int-or-string: true\n', '                port: {}\n')
      .replace('  scope: Namespaced', '  scope: Global');
    const file = new SourceFile('databases.yaml', text);
    const { problems } = readCrd(file.value);
    expect(problems.map((problem) => ({ ...file.locate(fromPointer(problem.pointer)), message: problem.message }))).toEqual([
      { line: 8, column: 3, message: '/spec/scope Unsupported value: "Global": supported values: "Cluster", "Namespaced"' },
      { line: 64, column: 17, message: '/properties/spec/properties/port/type: must not be empty for specified object fields' },
    ]);
  });
});

describe("a repository's crds folder", () => {
  it('lists its YAML and JSON files in code-point order', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { loadCrdFiles } = await import('../../src/repository/load.js');
    const repository = mkdtempSync(path.join(tmpdir(), 'crds-'));
    expect(loadCrdFiles(repository)).toEqual([]);
    mkdirSync(path.join(repository, 'crds'));
    writeFileSync(path.join(repository, 'crds', 'b.json'), '{}');
    writeFileSync(path.join(repository, 'crds', 'a.yaml'), 'a: 1\n');
    writeFileSync(path.join(repository, 'crds', 'notes.md'), '#');
    expect(loadCrdFiles(repository).map(({ name, file }) => [name, file.value])).toEqual([
      ['a', { a: 1 }],
      ['b', {}],
    ]);
  });
});
