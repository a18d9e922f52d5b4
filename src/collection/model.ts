/**
 * The collection model: a repository's collections read and parsed once, each section with its
 * facets, master flag, template, placeholder sites and problems. Lint rules look at it, the build
 * makes bundles of it and render plans take its ordered sections. Built from loaded files alone,
 * so a lint rule can be run by itself, with no Kubernetes types generated.
 */
import type { CollectionSource, NamedFile, RepositorySource } from '../repository/load.js';
import type { SourceFile } from '../repository/source-file.js';
import { isPlainObject, type JsonObject } from '../util/json.js';
import { mastersFirst } from './facet.js';
import { type ParsedSection, parseSection, sectionPartsOf } from './section.js';

export interface SectionModel extends NamedFile, ParsedSection {
  /** The section file's object; undefined when the file is not a JSON object (then nothing is parsed). */
  body: JsonObject | undefined;
}

export interface CollectionModel {
  repository: RepositorySource;
  source: CollectionSource;
  /** collection.json when it is a JSON object. */
  declaration: JsonObject | undefined;
  /** In file order. */
  sections: SectionModel[];
  /** The sections that are JSON objects, in render order: masters first (CONTRACT §4). */
  ordered: SectionModel[];
}

export interface RepositoryModel {
  source: RepositorySource;
  collections: CollectionModel[];
}

function sectionModel(named: NamedFile): SectionModel {
  const body = isPlainObject(named.file.value) ? (named.file.value as JsonObject) : undefined;
  return { ...named, ...parseSection(sectionPartsOf(named.name, body ?? {})), body };
}

/** The models of a repository's collections, each section parsed once. */
export function collectionModels(repository: RepositorySource): CollectionModel[] {
  return repository.collections.map((source) => {
    const sections = source.sections.map(sectionModel);
    return {
      repository,
      source,
      declaration: isPlainObject(source.file.value) ? (source.file.value as JsonObject) : undefined,
      sections,
      ordered: mastersFirst(sections.filter((section) => section.body !== undefined)),
    };
  });
}

export function repositoryModel(source: RepositorySource): RepositoryModel {
  return { source, collections: collectionModels(source) };
}

/** Every file of a repository: its declaration, CRDs, and each collection's declaration, sections and examples. */
export function repositoryFiles(repository: RepositorySource): SourceFile[] {
  const collectionFiles = (collection: CollectionSource) => [
    collection.file,
    ...collection.sections.map((section) => section.file),
    ...collection.examples.map((example) => example.file),
  ];
  return [repository.file, ...repository.crds.map((crd) => crd.file), ...repository.collections.flatMap(collectionFiles)];
}
