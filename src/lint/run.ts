/**
 * The lint runner: every rule is a plain function over the collection model that adds messages to
 * one report (as Helm's pkg/lint does). Source rules need the files alone; typed rules look at what
 * the build compiled (a render plan, the kind's schema), so the build runs them per collection.
 */
import { type CollectionModel, isMounted, type RepositoryModel, type SectionModel, type SharedModel } from '../collection/model.js';
import type { LintReport } from './report.js';
import { lintConflicts, lintMaster } from './rules/collection.js';
import { type LintedCrds, lintCrds } from './rules/crds.js';
import { lintExampleShapes } from './rules/example-shapes.js';
import { lintFiles } from './rules/files.js';
import { lintKindTyping, type TypedCollection } from './rules/kind-typing.js';
import { lintInputTypes } from './rules/input-types.js';
import { lintFixedValues, lintInterpolatedLandings } from './rules/kubernetes.js';
import { lintRefinements } from './rules/refinements.js';
import { lintUnportedKind } from './rules/unported-kind.js';
import {
  lintCollectionDeclaration,
  lintRepositoryDeclaration,
  lintSharedDeclaration,
  lintVariablesUnique,
} from './rules/repository-files.js';
import { lintFacets, lintIsObject, lintMemberNames, lintPlaceholders, lintReservedMembers } from './rules/sections.js';
import { lintCopies, lintMounts } from './rules/shared.js';

export type LintRule<Model> = (model: Model, report: LintReport) => void;

/** A collection's own section files; the ones it mounts are linted once, in their shared folder (lintShared). */
const eachSection =
  (rule: LintRule<SectionModel>): LintRule<CollectionModel> =>
  (collection, report) => {
    for (const section of collection.sections) if (!isMounted(section)) rule(section, report);
  };

const FILE_RULES: LintRule<SectionModel>[] = [lintIsObject, lintFacets, lintReservedMembers, lintMemberNames];

/** A shared folder's files as written: its declaration, then each section against its neutral variable. */
const lintShared: LintRule<SharedModel> = (shared, report) => {
  lintSharedDeclaration(shared, report);
  for (const section of shared.sections) {
    for (const rule of FILE_RULES) rule(section, report);
    lintPlaceholders(shared, section, report, "this shared folder's");
    lintRefinements(section, report);
  }
};

const eachCollection =
  (rule: LintRule<CollectionModel>): LintRule<RepositoryModel> =>
  (repository, report) => {
    for (const collection of repository.collections) rule(collection, report);
  };

/** Cross-file rules skip files that already have errors, so that one mistake gives one message. */
const lintConflictsOfCleanSections: LintRule<CollectionModel> = (collection, report) =>
  lintConflicts({ ...collection, sections: collection.sections.filter((section) => !report.hasErrorsIn(section.file.path)) }, report);

/** In this order: a file's messages at one position are listed in the order its rules ran. */
const SOURCE_RULES: LintRule<RepositoryModel>[] = [
  lintFiles,
  ({ source }, report) => lintRepositoryDeclaration(source, report),
  ({ collections }, report) => lintVariablesUnique(collections, report),
  (model, report) => {
    for (const shared of model.shared) lintShared(shared, report);
  },
  ...[
    lintCollectionDeclaration,
    ...FILE_RULES.map(eachSection),
    (collection: CollectionModel, report: LintReport) => {
      for (const section of collection.sections) if (!isMounted(section)) lintPlaceholders(collection, section, report);
    },
    eachSection(lintRefinements),
    lintMaster,
    lintConflictsOfCleanSections,
  ].map(eachCollection),
  (model, report) => {
    for (const collection of model.collections) lintMounts(collection, model, report);
  },
  lintCopies,
];

const TYPED_RULES: LintRule<TypedCollection>[] = [
  lintKindTyping,
  lintUnportedKind,
  ({ model, plan, typing: { manifestCheck } }, report) => {
    if (manifestCheck !== undefined) lintFixedValues(model, plan, manifestCheck, report);
  },
  ({ model, typing: { kindSchema } }, report) => {
    if (kindSchema !== undefined) for (const section of model.ordered) lintInterpolatedLandings(section, section.sites, kindSchema, report);
  },
  ({ model, typing: { kindSchema } }, report) => lintInputTypes(model, kindSchema, report),
];

/** A collection the build can compile: declared, and no errors in its declaration or sections. */
export function isCompilable(collection: CollectionModel, report: LintReport): boolean {
  const files = [collection.source.file, ...collection.sections.map((section) => section.file)];
  return collection.declaration !== undefined && !files.some((file) => report.hasErrorsIn(file.path));
}

/**
 * Every rule that needs the repository's files alone; the CRDs that read cleanly are returned, to
 * type its collections. The examples of a collection that cannot be compiled are checked for shape.
 */
export function lintRepository(model: RepositoryModel, report: LintReport): LintedCrds {
  for (const rule of SOURCE_RULES) rule(model, report);
  const crds = lintCrds(model.source, report);
  for (const collection of model.collections) if (!isCompilable(collection, report)) lintExampleShapes(collection, report);
  return crds;
}

/** The rules that ask the kind's own schema and the collection's render plan. */
export function lintTypedCollection(typed: TypedCollection, report: LintReport): void {
  for (const rule of TYPED_RULES) rule(typed, report);
}
