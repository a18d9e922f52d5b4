/**
 * Lint and compile: repositories on disk → lint report + bundles in memory. `facetform lint` prints
 * the report; `facetform build` writes the bundles when the report has no errors. Examples are
 * rendered exactly as the server renders requests, and each manifest is checked against its kind:
 * kubernetes-models for built-in kinds, the repository's CRD for custom resources (kind-typing.ts).
 */
import { type Bundle, type BundleCollection, BUNDLE_FORMAT, sealBundle } from '../bundle/bundle.js';
import type { KubernetesInputs } from './compatibility.js';
import { type KindTyping, KindTypes } from './kind-typing.js';
import { execute, requestShapeProblems } from '../exec/execute.js';
import { lintCollectionDeclaration, lintRepositoryDeclaration, lintVariablesUnique } from '../lint/rules/declarations.js';
import { lintConflicts, lintMaster } from '../lint/rules/collection.js';
import { lintFacets, lintMemberNames, lintPlaceholders, lintReservedMembers } from '../lint/rules/sections.js';
import { lintRefinements } from '../lint/rules/refinements.js';
import { lintFixedValues, lintInterpolatedLandings } from '../lint/rules/kubernetes.js';
import { type CollectionContext, collectionContexts } from '../lint/context.js';
import { LintReport } from '../lint/report.js';
import { type LintedCrds, lintCrds } from '../lint/rules/crds.js';
import { RenderError } from '../request/problems.js';
import { MASTER_FACET } from '../collection/facet.js';
import { CollectionRenderPlan, type RenderRequest } from '../render/render-plan.js';
import { loadRepositories, type RepositorySource } from '../repository/load.js';
import type { SourceFile } from '../repository/source-file.js';
import { generateInputSchema, isRefinementMap } from '../schema/input-schema.js';
import { InputValidator } from '../schema/input-validator.js';
import { KubeTypes, type Schema } from '../schema/kube-types.js';
import { contentOf, parseBody, placeholderSites } from '../template/body.js';
import { fromPointer, isPlainObject, type JsonObject } from '../util/json.js';
import { findUnrepresentable } from '../util/unrepresentable.js';

export interface CompileResult {
  report: LintReport;
  /** Bundles of the repositories that have no lint errors. */
  bundles: Bundle[];
  /** Per bundle, each collection's input schema from the Kubernetes types alone, for the compatibility check. */
  kubernetesInputs: Map<Bundle, KubernetesInputs>;
  sources: RepositorySource[];
}

function allFiles(repository: RepositorySource): SourceFile[] {
  return [repository.file, ...repository.crds.map((crd) => crd.file), ...repository.collections.flatMap((c) => [c.file, ...c.sections.map((s) => s.file), ...c.examples.map((e) => e.file)])];
}

function lintStructure(repository: RepositorySource, contexts: CollectionContext[], report: LintReport): void {
  for (const file of allFiles(repository)) {
    // The first syntax error only: the ones after it are mostly its echoes.
    const [problem] = file.syntaxErrors;
    if (problem !== undefined) report.error(file, problem, problem.message, 'fix the JSON syntax at this position, then run lint again');
    // What no answer can carry (a number beyond a double, a lone surrogate) would fail every request.
    const unrepresentable = findUnrepresentable(file.value);
    if (unrepresentable !== undefined) report.error(file, fromPointer(unrepresentable.pointer), unrepresentable.detail, 'write a value JSON and YAML answers can carry');
    for (const duplicate of file.duplicateMembers()) {
      report.error(file, duplicate.position, `member "${duplicate.name}" appears twice in one object; JSON keeps only the last`, 'merge the two into one member');
    }
  }
  lintRepositoryDeclaration(repository, report);
  lintVariablesUnique(contexts, report);
  for (const context of contexts) {
    lintCollectionDeclaration(context, report);
    for (const section of context.sections) {
      if (section.file.value !== undefined && section.section === undefined) {
        report.error(section.file, [], 'a section must be a JSON object', 'see README.md, "Sections"');
      }
      lintFacets(section, report);
      lintReservedMembers(section, report);
      lintMemberNames(section, report);
      lintPlaceholders(context, section, report);
      lintRefinements(section, report);
    }
    lintMaster(context, report);
    // Cross-file rules skip files that already have errors, so that one mistake gives one message.
    lintConflicts({ ...context, sections: context.sections.filter((section) => !report.hasErrorsIn(section.file.path)) }, report);
  }
}

const compilable = (context: CollectionContext, report: LintReport): boolean =>
  context.declaration !== undefined && ![context.source.file, ...context.sections.map((s) => s.file)].some((file) => report.hasErrorsIn(file.path));

/**
 * Examples of a collection whose sections have errors cannot be rendered, but their own shape can
 * still be checked, so that one run reports every problem.
 */
function lintExampleShapes(context: CollectionContext, report: LintReport): void {
  for (const { file } of context.source.examples) {
    if (file.value === undefined) continue;
    const { $description: _description, ...request } = isPlainObject(file.value) ? (file.value as JsonObject) : { request: file.value };
    for (const problem of requestShapeProblems(isPlainObject(file.value) ? request : file.value)) {
      report.error(file, fromPointer(problem.pointer), `example is not an exec request: ${problem.pointer || '/'} ${problem.detail}`, 'write { "facets": [...], "values": {...}, "globalvars": {...} }');
    }
  }
}

/** What types the collection's kind, or why nothing does: a lint error unless the collection is declared untyped. */
function typingOf(context: CollectionContext, kinds: KindTypes, crds: LintedCrds, report: LintReport): KindTyping {
  const declaration = context.declaration as { kind: string; apiVersion: string; untyped?: boolean };
  const typing = kinds.typing(declaration.apiVersion, declaration.kind, crds.catalog);
  const file = context.source.file;
  // A CRD that names the kind but has errors of its own: those are the ones to fix, and lint lists them.
  const brokenCrd = crds.broken.get(declaration.kind);
  if (typing.by === 'nothing' && declaration.untyped !== true && brokenCrd !== undefined) {
    report.error(file, ['kind'], `${declaration.kind} is defined by ${brokenCrd.path}, which has errors`, 'fix the errors lint lists in that file');
  } else if (typing.by === 'nothing' && declaration.untyped !== true) {
    report.error(
      file,
      ['kind'],
      `${declaration.apiVersion} ${declaration.kind} is neither a built-in Kubernetes kind nor served by a CRD in ${context.repository.name}/crds/: nothing types its values or checks its answers`,
      `add the CustomResourceDefinition that defines it to ${context.repository.dir}/crds/, or, to render it unchecked, write "untyped": true`,
    );
  }
  if (typing.by !== 'nothing' && declaration.untyped === true) {
    report.warning(file, ['untyped'], `"untyped" has no effect: ${declaration.kind} is typed by ${typing.by === 'crd' ? typing.crdFile.path : 'the Kubernetes API'}, and its answers are checked`, 'remove "untyped"');
  }
  return typing;
}

/** Builds one collection of a bundle and checks its examples. */
function compileCollection(context: CollectionContext, typing: KindTyping, report: LintReport): { collection: BundleCollection; kubernetesInput: Schema } {
  const declaration = context.declaration as { name: string; variable: string; kind: string; apiVersion: string; description: string };
  const sections = context.sections.map((section) => ({
    context: section,
    content: contentOf(section.section!),
    sites: placeholderSites(section.template!),
  }));
  const schemaSections = sections.map(({ context: section, sites }) => ({
    name: section.name,
    master: section.master,
    sites,
    refinements: isRefinementMap(section.section!.$values) ? section.section!.$values : {},
  }));
  const kindSchema = typing.by === 'nothing' ? undefined : typing.kindSchema;
  const generated = generateInputSchema(declaration, schemaSections, kindSchema);
  // What Kubernetes alone would refuse, so that narrowing to it is a fix: a CRD of the repository is
  // its authors' own word, and narrowing it is judged as any other input change.
  const kubernetesInput = generateInputSchema(declaration, schemaSections.map((section) => ({ ...section, refinements: {} })), typing.by === 'kubernetes' ? kindSchema : undefined).schema;
  // Render order: master sections first, then the others, each in file order (CONTRACT §4).
  sections.sort((a, b) => Number(b.context.master) - Number(a.context.master));
  const bundleSections = sections.map(({ context: section, content }) => ({
    name: section.name,
    facets: section.facets,
    description: typeof section.section!.$description === 'string' ? section.section!.$description : '',
    content,
    required: generated.required[section.name] ?? [],
  }));
  const plan = new CollectionRenderPlan({ collection: declaration.name, variable: declaration.variable, sections: bundleSections });
  const validator = new InputValidator(generated.schema);
  const manifestCheck = typing.by === 'nothing' ? undefined : typing.manifestCheck;
  if (manifestCheck !== undefined) lintFixedValues(context, plan, manifestCheck, report);
  if (kindSchema !== undefined) for (const { context: section, sites } of sections) lintInterpolatedLandings(section, sites, kindSchema, report);
  let examplesToCheck = context.source.examples;
  try {
    validator.compile();
  } catch (error) {
    report.error(context.source.file, [], `the generated input schema does not compile: ${(error as Error).message}`, 'check the $values refinements of this collection');
    examplesToCheck = [];
  }

  const examples: BundleCollection['examples'] = [];
  const rendered = new Set<number>();
  for (const example of examplesToCheck) {
    const { file } = example;
    if (file.value === undefined) continue;
    if (!isPlainObject(file.value)) {
      report.error(file, [], 'an example must be a JSON object: an exec request body', 'write { "facets": [...], "values": {...}, "globalvars": {...} }');
      continue;
    }
    const { $description, ...request } = file.value as JsonObject;
    if ($description !== undefined && typeof $description !== 'string') report.error(file, ['$description'], '"$description" must be a string', 'one sentence saying what the example shows');
    try {
      // As the server runs it: the manifest is checked against the kind's own schema too.
      const result = execute({ plan, validator, manifestCheck }, request);
      for (const pointer of result.unknownMembers) {
        report.warning(file, fromPointer(pointer), `unknown field ${pointer}: no placeholder reads it`, 'remove it, or add a section whose placeholder reads it');
      }
      plan.renderedSections(request as unknown as RenderRequest).forEach((index) => rendered.add(index));
      examples.push({ name: example.name, description: ($description as string | undefined) ?? '', request, manifest: result.manifest });
    } catch (error) {
      if (!(error instanceof RenderError)) throw error;
      for (const problem of error.problems) {
        report.error(file, fromPointer(problem.pointer), `example does not render: ${problem.pointer || '/'} ${problem.detail}`, 'fix the example values, or the section it names');
      }
    }
  }
  plan.sections.forEach((section, index) => {
    if (!rendered.has(index)) {
      const file = context.sections.find((candidate) => candidate.name === section.name)!.file;
      report.warning(file, ['facets'], `no example of ${declaration.name} renders section ${section.name}`, `add an example under ${context.source.dir}/examples/ that selects one of its facets and gives its placeholders values`);
    }
  });

  const collection = {
    name: declaration.name,
    variable: declaration.variable,
    kind: declaration.kind,
    apiVersion: declaration.apiVersion,
    description: declaration.description,
    facets: [...plan.facets],
    sections: bundleSections,
    schema: generated.schema,
    examples,
    ...(typing.by === 'crd' ? { customResource: typing.customResource } : {}),
  };
  return { collection, kubernetesInput };
}

export interface CompileOptions {
  /** Only these repositories of the folder (folder names); by default every one. */
  repositories?: readonly string[];
}

export async function compileRepositories(reposDir: string, options: CompileOptions = {}): Promise<CompileResult> {
  const report = new LintReport();
  const sources = loadRepositories(reposDir, options.repositories);
  const planned = sources.map((repository) => {
    const contexts = collectionContexts(repository);
    lintStructure(repository, contexts, report);
    return { repository, contexts, crds: lintCrds(repository, report) };
  });

  const kinds = planned.flatMap(({ contexts }) =>
    contexts.filter((context) => compilable(context, report)).map((context) => ({ apiVersion: String(context.declaration!.apiVersion), kind: String(context.declaration!.kind) })),
  );
  const kindTypes = new KindTypes(KubeTypes.shared().add(kinds), kinds);

  const bundles: Bundle[] = [];
  const kubernetesInputs = new Map<Bundle, KubernetesInputs>();
  for (const { repository, contexts, crds } of planned) {
    const collections: BundleCollection[] = [];
    const inputs = new Map<string, Schema>();
    for (const context of contexts) {
      if (!compilable(context, report)) {
        lintExampleShapes(context, report);
        continue;
      }
      const { collection, kubernetesInput } = compileCollection(context, typingOf(context, kindTypes, crds, report), report);
      collections.push(collection);
      inputs.set(collection.name, kubernetesInput);
    }
    if (allFiles(repository).some((file) => report.hasErrorsIn(file.path))) continue;
    const identity = repository.file.value as unknown as Bundle['repository'];
    const bundle = sealBundle({
      format: BUNDLE_FORMAT,
      repository: { name: identity.name, vendor: identity.vendor, apiVersion: identity.apiVersion, release: identity.release, description: identity.description },
      collections,
    });
    bundles.push(bundle);
    kubernetesInputs.set(bundle, inputs);
  }
  return { report, bundles, sources, kubernetesInputs };
}
