/**
 * A CRD's patterns run as the API server runs them (issue 31, item 6): Go's regexp (RE2), in linear
 * time and in Go's dialect, in the custom-resource check, in the input-value check before rendering
 * and in `$values` refinements; a pattern Go refuses is a lint error. The adversarial values below
 * backtrack for seconds (30 characters) to forever (5000) in JavaScript's RegExp: a test that ends
 * at all is the guard.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCrd } from '../../src/crd/crd.js';
import { crdKindSchema } from '../../src/crd/crd-schema.js';
import { objectMetaDefinitions } from '../../src/crd/object-meta.js';
import { customResourceCheck } from '../../src/crd/crd-check.js';
import type { ManifestCheck } from '../../src/manifest/kube-check.js';
import { GO_PATTERN_FIX } from '../../src/schema/go-regexp.js';
import { buildInto, runCli } from '../helpers/build.js';
import { ROOT, SHIPPED_REPOS, tempDir } from '../helpers/repos.js';
import { BASE, problemOf, startTestServer, type TestServer } from '../helpers/server.js';

const FIXTURES = path.join(ROOT, 'test/fixtures');
/** Backtracks exponentially in JavaScript on a run of letters that ends in '-'. */
const CATASTROPHIC = '^([a-z0-9]+-?)*[a-z0-9]$';
const adversarial = (length: number) => 'a'.repeat(length - 1) + '-';

/** The Database CRD of test/fixtures with string members whose patterns are `patterns`. */
function databaseCrd(patterns: Record<string, string>): Record<string, any> {
  const crd = parse(readFileSync(path.join(FIXTURES, 'crds/databases.yaml'), 'utf8'));
  const spec = crd.spec.versions.find((version: { served: boolean }) => version.served).schema.openAPIV3Schema.properties.spec;
  for (const [name, pattern] of Object.entries(patterns)) spec.properties[name] = { type: 'string', pattern };
  return crd;
}

const GO_ONLY = {
  slug: CATASTROPHIC,
  tier: '(?i)^gold\\z',
  word: '^[[:alpha:]]+$',
  letters: '^\\pL+$',
  // Go's `.` is any rune but '\n' (JavaScript's also refuses '\r'); Go's \s is [\t\n\f\r ], no '\v'.
  dotted: '^a.b$',
  blank: '^\\s$',
};

describe('a CRD pattern in the custom-resource check', () => {
  let check: ManifestCheck;
  beforeAll(() => {
    const crd = readCrd(databaseCrd(GO_ONLY)).crd!;
    const version = crd.versions.find((each) => each.served)!;
    const kindSchema = crdKindSchema(crd, version, objectMetaDefinitions());
    check = customResourceCheck(crd.kind, {
      crd: crd.name,
      version: version.name,
      definitions: kindSchema.definitions,
      openAPIV3Schema: version.schema,
    }).compile();
  }, 60_000);
  const problems = (spec: Record<string, string>) =>
    check
      .problems({
        apiVersion: 'platform.example.com/v1',
        kind: 'Database',
        metadata: { name: 'orders' },
        spec: { engine: 'postgres', storage: { size: '10Gi' }, ...spec },
      })
      .map(({ pointer, detail }) => `${pointer} ${detail}`);

  it('judges an adversarial value of 30 to 5000 characters at once, and a long matching one', () => {
    for (const length of [30, 5000])
      expect(problems({ slug: adversarial(length) })).toEqual([`/spec/slug must match pattern "${CATASTROPHIC}"`]);
    expect(problems({ slug: 'a-'.repeat(2500) + 'a' })).toEqual([]);
    expect(problems({ slug: 'web-1' })).toEqual([]);
  });

  it("reads Go's dialect and judges as Go: \\z, (?i), [[:alpha:]], \\pL, '.' and \\s", () => {
    expect(problems({ tier: 'GOLD', word: 'Hello', letters: 'héllo', dotted: 'a\rb', blank: '\f' })).toEqual([]);
    expect(problems({ tier: 'golden', word: 'h1', letters: 'a1', dotted: 'a\nb', blank: '\v' })).toEqual(
      ['tier', 'word', 'letters', 'dotted', 'blank'].map(
        (name) => `/spec/${name} must match pattern "${GO_ONLY[name as keyof typeof GO_ONLY]}"`,
      ),
    );
  });
});

describe('a pattern under a maxLength', () => {
  it('runs only on a value within the length: a longer one is refused for its length, whatever its size', () => {
    const crd = databaseCrd({});
    const version = readCrd(crd).crd!.versions.find((each) => each.served)!;
    (version.schema as any).properties.spec.properties.name = { type: 'string', maxLength: 63, pattern: CATASTROPHIC };
    const kindSchema = crdKindSchema(readCrd(crd).crd!, version, objectMetaDefinitions());
    const check = customResourceCheck('Database', {
      crd: 'databases.platform.example.com',
      version: version.name,
      definitions: kindSchema.definitions,
      openAPIV3Schema: version.schema,
    });
    const problems = (name: string) =>
      check
        .problems({
          apiVersion: 'platform.example.com/v1',
          kind: 'Database',
          metadata: { name: 'o' },
          spec: { engine: 'postgres', storage: { size: '1Gi' }, name },
        })
        .map(({ pointer, detail }) => `${pointer} ${detail}`);
    expect(problems(adversarial(60_000))).toEqual(['/spec/name must NOT have more than 63 characters']);
    expect(problems(adversarial(63))).toEqual([`/spec/name must match pattern "${CATASTROPHIC}"`]);
    expect(problems('web-1')).toEqual([]);
  });
});

describe('a pattern Go refuses', () => {
  it('is a problem of the CRD, in the API server words, with the pattern and a fix', () => {
    const { problems } = readCrd(databaseCrd({ ahead: '^(?=x)', twice: '(a)\\1' }));
    const at = (name: string) => `/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/${name}/pattern`;
    expect(problems).toEqual([
      {
        pointer: at('ahead'),
        message:
          '/properties/spec/properties/ahead/pattern: Invalid value: "^(?=x)": must be a valid regular expression, ' +
          "but isn't: error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
        fix: GO_PATTERN_FIX,
      },
      {
        pointer: at('twice'),
        message:
          '/properties/spec/properties/twice/pattern: Invalid value: "(a)\\\\1": must be a valid regular expression, ' +
          "but isn't: error parsing regexp: invalid escape sequence: `\\1`",
        fix: GO_PATTERN_FIX,
      },
    ]);
  });

  it('fails lint at its line, in a CRD file and in a $values refinement', async () => {
    const repos = reposWithDatabase(databaseCrd({ ahead: '^(?=x)' }), { 'metadata.name': { schema: { pattern: '(a)\\1' } } });
    const run = await runCli(['lint', '--repos', repos]);
    expect(run.code).not.toBe(0);
    const crdFile = path.join(repos, 'extend-resources/crds/databases.yaml');
    const crdLine = lineOf(crdFile, '(?=x)');
    expect(run.stderr).toContain(`${crdFile}:${crdLine}:`);
    expect(run.stderr).toMatch(
      /error \/properties\/spec\/properties\/ahead\/pattern: Invalid value: "\^\(\?=x\)": must be a valid regular expression/,
    );
    const section = path.join(repos, 'extend-resources/database/sections/core.json');
    expect(run.stderr).toContain(`${section}:${lineOf(section, '"schema"')}:`);
    expect(run.stderr).toContain('"schema" cannot be used: error parsing regexp: invalid escape sequence: `\\1`');
    expect(run.stderr.split(`hint: ${GO_PATTERN_FIX}`)).toHaveLength(3);
  });
});

describe('a CRD pattern through the server', () => {
  let server: TestServer;
  const exec = `${BASE}/extend-resources/v1/resources/collections/database/exec`;
  beforeAll(async () => {
    const repos = reposWithDatabase(databaseCrd({ slug: CATASTROPHIC, tier: '(?i)^gold\\z' }), {
      'metadata.name': { schema: { pattern: '^[[:lower:]]+\\z' } },
    });
    server = await startTestServer({ dist: await buildInto(repos) });
  }, 120_000);
  afterAll(() => server?.close());
  const request = (spec: Record<string, unknown>, name = 'orders') =>
    server.request(exec, {
      method: 'POST',
      json: { facets: [], values: { orders: { metadata: { name }, spec: { engine: 'postgres', storage: { size: '10Gi' }, ...spec } } } },
    });

  it('renders values the Go patterns take: a refinement and the CRD', async () => {
    const ok = await request({ slug: 'web-1', tier: 'Gold' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ spec: { slug: 'web-1', tier: 'Gold' } });
  });

  it('refuses twenty adversarial values at once, each at its member', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => request({ slug: adversarial(30 + index * 250) })));
    for (const answer of answers) {
      const problem = await problemOf(answer);
      expect(problem.status).toBe(422);
      expect(problem.errors!.map((error) => error.pointer)).toEqual(['/values/orders/spec/slug']);
    }
    const refined = await problemOf(await request({ tier: 'gold\n' }, 'Orders'));
    expect(refined.errors!.map((error) => error.pointer).sort()).toEqual(['/values/orders/metadata/name', '/values/orders/spec/tier']);
  });
});

/** extend-resources alone, with `crd` in crds/ and the Database collection writing slug and tier, refined by `refinements`. */
function reposWithDatabase(crd: Record<string, unknown>, refinements: Record<string, unknown>): string {
  const repos = tempDir();
  cpSync(path.join(SHIPPED_REPOS, 'extend-resources'), path.join(repos, 'extend-resources'), { recursive: true });
  const collection = path.join(repos, 'extend-resources/database');
  cpSync(path.join(FIXTURES, 'custom-resource/database'), collection, { recursive: true });
  writeFileSync(path.join(repos, 'extend-resources/crds/databases.yaml'), stringify(crd));
  const section = path.join(collection, 'sections/core.json');
  const body = JSON.parse(readFileSync(section, 'utf8'));
  body.spec.slug = '{{ __DB_ID__.spec.slug }}';
  body.spec.tier = '{{ __DB_ID__.spec.tier }}';
  body.$values = refinements;
  writeFileSync(section, JSON.stringify(body, null, 2));
  return repos;
}

const lineOf = (file: string, text: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(text)) + 1;
