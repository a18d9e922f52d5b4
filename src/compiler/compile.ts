/**
 * Compile: repositories on disk → lint report + bundles in memory. The lint runner (lint/run.ts)
 * checks the collection models; here each clean collection gets its input schemas and render plan,
 * its examples are rendered exactly as the server renders requests (examples.ts), and each
 * repository without errors is sealed into a bundle. `facetform lint` prints the report;
 * `facetform build` writes the bundles when the report has no errors.
 */
import { type Bundle, type BundleCollection, type BundleSection, BUNDLE_FORMAT, sealBundle } from '../bundle/bundle.js';
import { type CollectionModel, repositoryFiles, type RepositoryModel, repositoryModel } from '../collection/model.js';
import type { ParsedSection } from '../collection/section.js';
import { LintReport } from '../lint/report.js';
import type { LintedCrds } from '../lint/rules/crds.js';
import { isCompilable, lintRepository, lintTypedCollection } from '../lint/run.js';
import type { Executable } from '../exec/execute.js';
import { CollectionRenderPlan } from '../render/render-plan.js';
import { loadRepositories, type RepositorySource } from '../repository/load.js';
import { type GeneratedInput, generateInputSchema } from '../schema/input-schema.js';
import { InputValidator } from '../schema/input-validator.js';
import { KubeTypes } from '../kubernetes/kube-types.js';
import type { Schema } from '../kubernetes/kind-schema.js';
import type { CompiledRelease } from '../upgrade/release-gate.js';
import { checkExamples } from './examples.js';
import { type KindTyping, KindTypes } from './kind-typing.js';

export interface CompileResult {
  report: LintReport;
  /** Bundles of the repositories that have no lint errors. */
  bundles: Bundle[];
  /** Per bundle, what judging it as a release reads: its compiled collections, and their inputs from the Kubernetes types alone. */
  compiled: Map<Bundle, CompiledRelease>;
  sources: RepositorySource[];
}

export interface CompileOptions {
  /** Only these repositories of the folder (folder names); by default every one. */
  repositories?: readonly string[];
}

interface Declaration {
  name: string;
  variable: string;
  kind: string;
  apiVersion: string;
  description: string;
}

interface BuiltCollection {
  collection: BundleCollection;
  /** The input schema Kubernetes alone would ask for, for the compatibility check. */
  kubernetesInput: Schema;
  /** What the examples ran on; undefined when the input schema does not compile (an error: no bundle is sealed). */
  executable: Executable | undefined;
}

export async function compileRepositories(reposDir: string, options: CompileOptions = {}): Promise<CompileResult> {
  const report = new LintReport();
  const sources = loadRepositories(reposDir, options.repositories);
  const linted = sources.map((source) => {
    const model = repositoryModel(source);
    return { model, crds: lintRepository(model, report) };
  });
  const kindTypes = kindTypesOf(linted.flatMap(({ model }) => model.collections.filter((collection) => isCompilable(collection, report))));
  const bundles: Bundle[] = [];
  const compiled = new Map<Bundle, CompiledRelease>();
  for (const { model, crds } of linted) {
    const compilable = model.collections.filter((collection) => isCompilable(collection, report));
    const built = compilable.map((collection) => buildCollection(collection, kindTypes, crds, report));
    const bundle = sealRepository(model, built, report);
    if (bundle === undefined) continue;
    bundles.push(bundle);
    compiled.set(bundle, compiledRelease(built));
  }
  return { report, bundles, sources, compiled };
}

/** The Kubernetes types of every kind a compilable collection renders, generated together (the slow part). */
function kindTypesOf(collections: CollectionModel[]): KindTypes {
  const kinds = collections.map(({ declaration }) => ({ apiVersion: String(declaration!.apiVersion), kind: String(declaration!.kind) }));
  return new KindTypes(KubeTypes.shared().add(kinds), kinds);
}

/** Builds one collection of a bundle and checks its examples. */
function buildCollection(model: CollectionModel, kindTypes: KindTypes, crds: LintedCrds, report: LintReport): BuiltCollection {
  const declaration = model.declaration as unknown as Declaration;
  const typing = kindTypes.typing(declaration.apiVersion, declaration.kind, crds.catalog);
  const kindSchema = typing.by === 'nothing' ? undefined : typing.kindSchema;
  // In file order, as the schema's members are.
  const generated = generateInputSchema(declaration, model.sections, kindSchema);
  // What Kubernetes alone would refuse, so that narrowing to it is a fix: a CRD of the repository is
  // its authors' own word, and narrowing it is judged as any other input change.
  const unrefined = model.sections.map((section) => ({ ...section, refinements: {} }));
  const kubernetesInput = generateInputSchema(declaration, unrefined, typing.by === 'kubernetes' ? kindSchema : undefined).schema;
  const sections = bundleSections(model, generated);
  const plan = new CollectionRenderPlan({ collection: declaration.name, variable: declaration.variable, ordered: sections.parsed });
  lintTypedCollection({ model, typing, brokenCrds: crds.broken, plan }, report);
  const validator = compiledValidator(model, generated.schema, report);
  const manifestCheck = typing.by === 'nothing' ? undefined : typing.manifestCheck;
  // A section the typed rules refuse fails its examples too: one mistake, one message, at the section.
  const sectionsClean = !model.sections.some((section) => report.hasErrorsIn(section.file.path));
  const executable = validator && sectionsClean ? { plan, validator, manifestCheck } : undefined;
  const examples = checkExamples(model, plan, executable, report);
  return {
    collection: bundleCollection(declaration, plan, sections.stored, generated.schema, examples, typing),
    kubernetesInput,
    executable,
  };
}

/** A bundle's collections as compiled here, by name, for the release gate. */
function compiledRelease(built: BuiltCollection[]): CompiledRelease {
  return {
    collections: new Map(built.flatMap(({ collection, executable }) => (executable === undefined ? [] : [[collection.name, executable]]))),
    kubernetesInputs: new Map(built.map(({ collection, kubernetesInput }) => [collection.name, kubernetesInput])),
  };
}

/** The sections in render order with the placeholders the input schema requires: parsed for the plan, as stored for the bundle. */
function bundleSections(model: CollectionModel, generated: GeneratedInput): { parsed: ParsedSection[]; stored: BundleSection[] } {
  const parsed = model.ordered.map((section) => ({ ...section, required: generated.required[section.name] ?? [] }));
  const stored = parsed.map(({ name, facets, description, content, required }) => ({ name, facets, description, content, required }));
  return { parsed, stored };
}

/** The input validator, or undefined with an error when the generated schema does not compile (its examples are then not run). */
function compiledValidator(model: CollectionModel, schema: Schema, report: LintReport): InputValidator | undefined {
  const validator = new InputValidator(schema);
  try {
    validator.compile();
    return validator;
  } catch (error) {
    report.error(
      model.source.file,
      [],
      `the generated input schema does not compile: ${(error as Error).message}`,
      'check the $values refinements of this collection',
    );
    return undefined;
  }
}

function bundleCollection(
  declaration: Declaration,
  plan: CollectionRenderPlan,
  sections: BundleSection[],
  schema: Schema,
  examples: BundleCollection['examples'],
  typing: KindTyping,
): BundleCollection {
  const { name, variable, kind, apiVersion, description } = declaration;
  const customResource = typing.by === 'crd' ? { customResource: typing.customResource } : {};
  return { name, variable, kind, apiVersion, description, facets: [...plan.facets], sections, schema, examples, ...customResource };
}

/** The bundle of a repository none of whose files has errors; undefined otherwise. */
function sealRepository(model: RepositoryModel, built: BuiltCollection[], report: LintReport): Bundle | undefined {
  if (repositoryFiles(model.source).some((file) => report.hasErrorsIn(file.path))) return undefined;
  const { name, vendor, apiVersion, release, description } = model.source.file.value as unknown as Bundle['repository'];
  const collections = built.map(({ collection }) => collection);
  return sealBundle({ format: BUNDLE_FORMAT, repository: { name, vendor, apiVersion, release, description }, collections });
}
