/**
 * The collection model and the lint rules over it: each rule is a plain function (model, report)
 * run here alone on the model of a small repository, with no compile, no other rule and no
 * Kubernetes types generated (test/lint.test.ts runs them all together through the build).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CollectionModel, type RepositoryModel, repositoryModel } from '../src/collection/model.js';
import { orderedSections } from '../src/collection/section.js';
import { type LintMessage, LintReport } from '../src/lint/report.js';
import { lintExampleShapes } from '../src/lint/rules/example-shapes.js';
import { lintFiles } from '../src/lint/rules/files.js';
import { lintKindTyping, type TypedCollection } from '../src/lint/rules/kind-typing.js';
import { lintIsObject } from '../src/lint/rules/sections.js';
import { isCompilable, type LintRule, lintRepository } from '../src/lint/run.js';
import { CollectionRenderPlan } from '../src/render/render-plan.js';
import { loadRepositories } from '../src/repository/load.js';
import { DEMO_REPOS, repoCopy } from './helpers/repos.js';

const COLLECTION = 'demo-resources/settings';
const SECTIONS = `${COLLECTION}/sections`;

/** The model of a copy of the demo repository with `files` planted, and the folder it lives in. */
function modelWith(files: Record<string, string>): { dir: string; model: RepositoryModel; collection: CollectionModel } {
  const dir = repoCopy(DEMO_REPOS, files);
  const model = repositoryModel(loadRepositories(dir)[0]!);
  return { dir, model, collection: model.collections[0]! };
}

/** Runs one rule on one model and returns its messages alone, with paths relative to the repository copy. */
function run<Model>(dir: string, rule: LintRule<Model>, model: Model, report = new LintReport()): LintMessage[] {
  rule(model, report);
  return report.sorted().map((message) => ({ ...message, file: path.relative(dir, message.file) }));
}

const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n';

describe('the collection model', () => {
  it('parses each section once: facets, master flag, description, placeholder sites and syntax problems', () => {
    const { collection } = modelWith({
      [`${SECTIONS}/odd.json`]: json({ $description: 'Odd.', facets: ['addon:odd', 7], data: { a: '{{ __SET_ID__.a }}', b: '{{ broken' } }),
    });
    const odd = collection.sections.find((section) => section.name === 'odd')!;
    expect(odd).toMatchObject({
      facets: ['addon:odd'],
      master: false,
      description: 'Odd.',
      content: { data: { a: '{{ __SET_ID__.a }}', b: '{{ broken' } },
    });
    expect(odd.sites.map((site) => site.at)).toEqual([['data', 'a']]);
    expect(odd.syntaxErrors.map(({ at }) => at)).toEqual([['data', 'b']]);
  });

  it('orders sections masters first, each group in file order, whether read from files or from a bundle', () => {
    const { collection } = modelWith({ [`${SECTIONS}/a-first.json`]: json({ facets: ['addon:first'], data: '{{ __SET_ID__.x }}' }) });
    const fileOrder = collection.sections.map((section) => section.name);
    const masters = collection.sections.filter((section) => section.master).map((section) => section.name);
    const expected = [...masters, ...fileOrder.filter((name) => !masters.includes(name))];
    expect(fileOrder[0]).toBe('a-first');
    expect(collection.ordered.map((section) => section.name)).toEqual(expected);
    expect(orderedSections(collection.sections).map((section) => section.name)).toEqual(expected);
  });

  it('a render plan given the ordered model keeps its sections as they are', () => {
    const { collection } = modelWith({});
    const plan = new CollectionRenderPlan({ collection: 'settings', variable: '__SET_ID__', ordered: collection.ordered });
    expect(plan.sections).toBe(collection.ordered);
  });
});

describe('each lint rule alone, as (model, report)', () => {
  it('lintFiles: a file that is not valid JSON, at its line and column', () => {
    const { dir, model } = modelWith({ [`${SECTIONS}/broken.json`]: '{\n  "facets": ["addon:x"],\n  "data": {\n' });
    const messages = run(dir, lintFiles, model);
    expect(messages.map(({ file, line, column, severity }) => [file, line, column, severity])).toEqual([
      [`${SECTIONS}/broken.json`, 4, 1, 'error'],
    ]);
  });

  it('lintFiles: a member written twice in one object', () => {
    const { dir, model } = modelWith({ [`${SECTIONS}/twice.json`]: '{\n  "facets": ["addon:twice"],\n  "data": 1,\n  "data": 2\n}\n' });
    expect(run(dir, lintFiles, model).map((message) => [message.line, message.message])).toEqual([
      [4, 'member "data" appears twice in one object; JSON keeps only the last'],
    ]);
  });

  it('lintIsObject: a section file that holds an array', () => {
    const { dir, collection } = modelWith({ [`${SECTIONS}/list.json`]: '[]\n' });
    const list = collection.sections.find((section) => section.name === 'list')!;
    expect(list.body).toBeUndefined();
    expect(run(dir, lintIsObject, list).map((message) => [message.file, message.message])).toEqual([
      [`${SECTIONS}/list.json`, 'a section must be a JSON object'],
    ]);
  });

  it('lintExampleShapes: an example whose facets is not an array', () => {
    const { dir, collection } = modelWith({ [`${COLLECTION}/examples/odd.json`]: json({ facets: 'addon:data', values: {} }) });
    const messages = run(dir, lintExampleShapes, collection);
    expect(messages.map((message) => [message.file, message.message])).toEqual([
      [`${COLLECTION}/examples/odd.json`, 'example is not an exec request: /facets must be an array of facet names'],
    ]);
  });

  it('lintKindTyping: a kind nothing types, unless the collection says "untyped"', () => {
    const { dir, collection } = modelWith({});
    const typed = (model: CollectionModel): TypedCollection => ({
      model,
      typing: { by: 'nothing' },
      brokenCrds: new Map(),
      plan: new CollectionRenderPlan({ collection: 'settings', variable: '__SET_ID__', ordered: model.ordered }),
    });
    const messages = run(dir, lintKindTyping, typed(collection));
    expect(messages.map((message) => [message.file, message.severity, message.message])).toEqual([
      [
        `${COLLECTION}/collection.json`,
        'error',
        'v1 ConfigMap is neither a built-in Kubernetes kind nor served by a CRD in demo-resources/crds/: nothing types its values or checks its answers',
      ],
    ]);
    const untyped = { ...collection, declaration: { ...collection.declaration, untyped: true } };
    expect(run(dir, lintKindTyping, typed(untyped))).toEqual([]);
  });
});

describe('the lint runner', () => {
  it('runs every source rule on the model; a collection with errors in its sections is not compilable', () => {
    const { model } = modelWith({});
    const clean = new LintReport();
    lintRepository(model, clean);
    expect(clean.messages).toEqual([]);
    expect(isCompilable(model.collections[0]!, clean)).toBe(true);

    const broken = modelWith({ [`${SECTIONS}/upper.json`]: json({ facets: ['Addon:Upper'], data: '{{ __SET_ID__.data }}' }) });
    const report = new LintReport();
    lintRepository(broken.model, report);
    expect(report.errorCount).toBeGreaterThan(0);
    expect(isCompilable(broken.collection, report)).toBe(false);
  });
});
