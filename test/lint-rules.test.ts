/**
 * Each lint rule run alone, over the contexts of a small repository with one file planted: no
 * compile, no other rule, no Kubernetes types generated (test/lint.test.ts runs them all together).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type CollectionModel as CollectionContext,
  collectionModels as collectionContexts,
  type SectionModel as SectionContext,
} from '../src/collection/model.js';
import { type LintMessage, LintReport } from '../src/lint/report.js';
import { lintConflicts, lintMaster } from '../src/lint/rules/collection.js';
import { lintCollectionDeclaration, lintRepositoryDeclaration, lintVariablesUnique } from '../src/lint/rules/repository-files.js';
import { lintInputTypes } from '../src/lint/rules/input-types.js';
import { lintInterpolatedLandings } from '../src/lint/rules/kubernetes.js';
import { lintRefinements } from '../src/lint/rules/refinements.js';
import { lintUnportedKind } from '../src/lint/rules/unported-kind.js';
import { CollectionRenderPlan } from '../src/render/render-plan.js';
import { lintFacets, lintMemberNames, lintPlaceholders, lintReservedMembers } from '../src/lint/rules/sections.js';
import { loadRepositories, type RepositorySource } from '../src/repository/load.js';
import type { KindSchema } from '../src/kubernetes/kind-schema.js';
import { placeholderSites } from '../src/template/body.js';
import { DEMO_REPOS, removeFrom, repoCopy } from './helpers/repos.js';

const COLLECTION = 'demo-resources/settings';

interface Target {
  repository: RepositorySource;
  contexts: CollectionContext[];
  collection: CollectionContext;
  /** The section of that file name (without .json). */
  section(name: string): SectionContext;
}

/** Runs `rule` over a copy of the demo repository with `files` planted, and returns its messages alone. */
function lintAlone(
  files: Record<string, string>,
  rule: (target: Target, report: LintReport) => void,
  prepare?: (dir: string) => void,
): LintMessage[] {
  const dir = repoCopy(DEMO_REPOS, files);
  prepare?.(dir);
  const [repository] = loadRepositories(dir);
  const contexts = collectionContexts(repository!);
  const collection = contexts[0]!;
  const section = (name: string) => collection.sections.find((candidate) => candidate.name === name) ?? expect.fail(`no section ${name}`);
  const report = new LintReport();
  rule({ repository: repository!, contexts, collection, section }, report);
  return report.sorted().map((message) => ({ ...message, file: path.relative(dir, message.file) }));
}

const sectionFile = (name: string, body: object) => ({
  [`${COLLECTION}/sections/${name}.json`]: JSON.stringify({ facets: [`addon:${name}`], ...body }, null, 2) + '\n',
});

describe('each lint rule alone', () => {
  it('lintFacets: a facet of the wrong form, with the one it probably meant', () => {
    const [message, ...others] = lintAlone(
      { [`${COLLECTION}/sections/upper.json`]: '{\n  "facets": ["Addon:Upper"],\n  "immutable": true\n}\n' },
      ({ section }, report) => lintFacets(section('upper'), report),
    );
    expect(others).toEqual([]);
    expect(message).toMatchObject({
      file: `${COLLECTION}/sections/upper.json`,
      line: 2,
      column: 14,
      severity: 'error',
      message: 'facet "Addon:Upper" is not "master" or "addon:<name>"',
    });
    expect(message!.hint).toContain('did you mean "addon:upper"?');
  });

  it("lintPlaceholders: a placeholder reading another collection's variable", () => {
    const messages = lintAlone(sectionFile('other', { data: '{{ __CM_ID__.data }}' }), ({ collection, section }, report) =>
      lintPlaceholders(collection, section('other'), report),
    );
    expect(messages.map((message) => message.message)).toEqual([
      "placeholder reads __CM_ID__.data, but this collection's variable is __SET_ID__",
    ]);
  });

  it('lintReservedMembers: an unknown $-member is a warning that lists the known ones', () => {
    const messages = lintAlone(sectionFile('typo', { $descripton: 'x', data: '{{ __SET_ID__.data }}' }), ({ section }, report) =>
      lintReservedMembers(section('typo'), report),
    );
    expect(messages.map((message) => [message.severity, message.message, message.hint])).toEqual([
      [
        'warning',
        'unknown metadata member "$descripton" is ignored',
        'members starting with "$" are reserved; known ones: $description, $values',
      ],
    ]);
  });

  it('lintRepositoryDeclaration: a release that is not semver, with the form to write', () => {
    const declaration = JSON.stringify(
      { name: 'demo-resources', vendor: 'facetform', apiVersion: 'v1', release: '1.0', description: 'Demo.' },
      null,
      2,
    );
    const messages = lintAlone({ 'demo-resources/repository.json': declaration }, ({ repository }, report) =>
      lintRepositoryDeclaration(repository, report),
    );
    expect(messages.map((message) => [message.line, message.message])).toEqual([
      [5, '"release" is "1.0", which is not of the expected form'],
    ]);
  });

  it('lintMemberNames: a member that would reach into prototypes', () => {
    const messages = lintAlone(sectionFile('proto', { metadata: { labels: JSON.parse('{"__proto__": "x"}') } }), ({ section }, report) =>
      lintMemberNames(section('proto'), report),
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]!.message).toContain('"__proto__"');
  });

  it('lintRefinements: a $values refinement of a path no placeholder of the section reads', () => {
    const messages = lintAlone(
      sectionFile('refined', { data: '{{ __SET_ID__.data }}', $values: { dta: { schema: { minProperties: 1 } } } }),
      ({ section }, report) => lintRefinements(section('refined'), report),
    );
    expect(messages.map((message) => message.message)).toEqual(['"$values" refines "dta", but no placeholder of this section reads it']);
  });

  it('lintMaster: a collection whose master section is gone', () => {
    const messages = lintAlone(
      {},
      ({ collection }, report) => lintMaster(collection, report),
      (dir) => removeFrom(dir, `${COLLECTION}/sections/core.json`),
    );
    expect(messages.map((message) => [message.file, message.message])).toEqual([
      [`${COLLECTION}/collection.json`, 'collection settings has no master section'],
    ]);
  });

  it('lintConflicts: two sections writing one member, naming the other file and line', () => {
    // Two whole placeholders: which value fills data is ambiguous (a placeholder and an object merge).
    const messages = lintAlone(sectionFile('again', { data: '{{ __SET_ID__.more }}' }), ({ collection }, report) =>
      lintConflicts(collection, report),
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]!.message).toMatch(new RegExp(`^data is also written by .*${COLLECTION}/sections/(data|again)\\.json:\\d+:\\d+`));
  });

  it('lintCollectionDeclaration and lintVariablesUnique: one variable for two collections', () => {
    const dir = (name: string) => `demo-resources/${name}`;
    const second = {
      [`${dir('more')}/collection.json`]: JSON.stringify({
        name: 'more',
        variable: '__SET_ID__',
        kind: 'ConfigMap',
        apiVersion: 'v1',
        description: 'More settings.',
      }),
      [`${dir('more')}/sections/core.json`]: JSON.stringify({
        facets: ['master'],
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: '{{ __SET_ID__.metadata }}',
      }),
    };
    const messages = lintAlone(second, ({ contexts }, report) => {
      for (const context of contexts) lintCollectionDeclaration(context, report);
      lintVariablesUnique(contexts, report);
    });
    expect(messages.map((message) => [message.file, message.message])).toEqual([
      [`${COLLECTION}/collection.json`, 'variable __SET_ID__ is already the variable of collection more'],
    ]);
  });

  it('lintInterpolatedLandings: text with a placeholder where the kind wants an integer, judged by a hand-written kind schema', () => {
    const widget: KindSchema = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      definitions: {
        ConfigMap: {
          type: 'object',
          properties: {
            spec: { type: 'object', properties: { replicas: { type: 'integer', format: 'int32' }, name: { type: 'string' } } },
          },
        },
      },
    };
    const messages = lintAlone(
      sectionFile('count', { spec: { replicas: 'n-{{ __SET_ID__.n }}', name: 'n-{{ __SET_ID__.n }}' } }),
      ({ section }, report) => {
        const count = section('count');
        lintInterpolatedLandings(count, placeholderSites(count.template!), widget, report);
      },
    );
    expect(messages.map((message) => [message.line, message.message])).toEqual([
      [6, 'text with a placeholder always renders a string, but Kubernetes wants integer int32 at /spec/replicas'],
    ]);
  });

  it('lintInputTypes: a new section reading an input at a type no value shares with the others is blamed, naming them', () => {
    const widget: KindSchema = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      definitions: {
        ConfigMap: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: { items: { type: 'array', items: { type: 'string' } }, count: { type: 'integer' }, other: { type: 'array' } },
            },
            metadata: { type: 'object', properties: { annotations: { type: 'object', additionalProperties: { type: 'string' } } } },
          },
        },
      },
    };
    const messages = lintAlone(
      {
        ...sectionFile('items', { spec: { items: '{{ __SET_ID__.spec.items }}' } }),
        ...sectionFile('again', { spec: { other: '{{ __SET_ID__.spec.items }}' } }),
        ...sectionFile('note', { metadata: { annotations: { note: '{{ __SET_ID__.spec.items }}' } } }),
        // Interpolated into text: a scalar, which an integer member shares with any number.
        ...sectionFile('count', { spec: { count: '{{ __SET_ID__.n }}' }, metadata: { annotations: { n: 'n={{ __SET_ID__.n }}' } } }),
      },
      ({ collection }, report) => lintInputTypes(collection, widget, report),
    );
    expect(messages.map((message) => [message.file, message.severity, message.message.replace(/\S*\/sections\//g, '')])).toEqual([
      [
        `${COLLECTION}/sections/note.json`,
        'error',
        'reads __SET_ID__.spec.items as string, but again.json:6, items.json:6 read it as array: no value is both, so every request that gives it is refused',
      ],
    ]);
  });
});

/** The files of test/fixtures/unported-kind (a Deployment collection), planted in the demo repository. */
function unportedKindFixture(): Record<string, string> {
  const fixture = path.join(import.meta.dirname, 'fixtures/unported-kind');
  const files: Record<string, string> = {};
  for (const file of readdirSync(fixture, { recursive: true, encoding: 'utf8' }))
    if (file.endsWith('.json')) files[`demo-resources/${file.split(path.sep).join('/')}`] = readFileSync(path.join(fixture, file), 'utf8');
  return files;
}

describe('lintUnportedKind', () => {
  const typedAs = (by: 'kubernetes' | 'crd') => (collection: CollectionContext) => ({
    model: collection,
    typing: { by },
    brokenCrds: new Map(),
    plan: new CollectionRenderPlan({ collection: 'web', variable: '__WEB_ID__', ordered: collection.ordered }),
  });

  it("warns at a built-in kind's collection whose API-server rules are not ported, naming what goes unchecked", () => {
    const messages = lintAlone(unportedKindFixture(), ({ contexts }, report) => {
      for (const collection of contexts) lintUnportedKind(typedAs('kubernetes')(collection), report);
    });
    // The demo's ConfigMap collection is ported: only the Deployment is told.
    expect(messages).toEqual([
      {
        file: 'demo-resources/web/collection.json',
        line: 4,
        column: 3,
        severity: 'warning',
        message:
          "apps/v1 Deployment: the API server's own validation (beyond its OpenAPI schema) is not ported; its name, labels, " +
          'annotations and the rules of pkg/apis/apps/validation go unchecked, so an answer of 200 may still be refused by kubectl apply',
        hint:
          'judge its manifests with `kubectl apply --dry-run=server` until its rules are ported; ' +
          'docs/authoring.md#kinds-judged-as-the-api-server-judges-them lists the kinds that are',
      },
    ]);
  });

  it('says nothing of a custom resource, which its CRD judges', () => {
    const messages = lintAlone(unportedKindFixture(), ({ contexts }, report) => {
      for (const collection of contexts) lintUnportedKind(typedAs('crd')(collection), report);
    });
    expect(messages).toEqual([]);
  });
});
