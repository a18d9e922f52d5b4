/**
 * The collection model: a repository's collections read and parsed once, each section with its
 * facets, master flag, template, placeholder sites and problems. Lint rules look at it, the build
 * makes bundles of it and render plans take its ordered sections. Built from loaded files alone,
 * so a lint rule can be run by itself, with no Kubernetes types generated.
 */
import type { CollectionSource, NamedFile, RepositorySource, SharedSource } from '../repository/load.js';
import type { SourceFile } from '../repository/source-file.js';
import { isPlainObject, type JsonObject } from '../util/json.js';
import { VARIABLE_PATTERN } from '../template/placeholder.js';
import { mastersFirst } from './facet.js';
import { type Mount, MountedFile, mountedBody, mountsOf } from './mount.js';
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
  /** Its own in file order, then the shared sections it mounts (named `<shared>.<section>`) in the order it lists them. */
  sections: SectionModel[];
  /** collection.json's well-formed `shared` entries. */
  mounts: Mount[];
  /** The sections that are JSON objects, in render order: masters first (CONTRACT §4). */
  ordered: SectionModel[];
}

/** A `shared/<name>/` folder: its declaration and its sections parsed as written, reading `variable`. */
export interface SharedModel {
  source: SharedSource;
  declaration: JsonObject | undefined;
  /** The neutral variable its placeholders read, when shared.json declares a well-formed one. */
  variable: string | undefined;
  sections: SectionModel[];
}

export interface RepositoryModel {
  source: RepositorySource;
  collections: CollectionModel[];
  shared: SharedModel[];
}

const objectOf = (value: unknown) => (isPlainObject(value) ? (value as JsonObject) : undefined);

function sectionModel(named: NamedFile, body = objectOf(named.file.value)): SectionModel {
  return { ...named, ...parseSection(sectionPartsOf(named.name, body ?? {})), body };
}

export function sharedModels(repository: RepositorySource): SharedModel[] {
  return repository.shared.map((source) => {
    const declaration = objectOf(source.file.value);
    const variable =
      typeof declaration?.variable === 'string' && VARIABLE_PATTERN.test(declaration.variable) ? declaration.variable : undefined;
    return { source, declaration, variable, sections: source.sections.map((named) => sectionModel(named)) };
  });
}

/** A shared folder's sections as one collection's own; none while the folder or its variable is broken (lint says so). */
function mountedSections(mount: Mount, collection: CollectionSource, variable: unknown, shared: SharedModel[]): SectionModel[] {
  const folder = shared.find((candidate) => candidate.source.name === mount.shared);
  if (folder?.variable === undefined || typeof variable !== 'string') return [];
  return folder.sections.map((section) => {
    const file = new MountedFile(section.file, collection.name, mount.at);
    const body = section.body && mountedBody(section.body, folder.variable!, variable, mount.at);
    return sectionModel({ name: `${mount.shared}.${section.name}`, file }, body);
  });
}

/** The models of a repository's collections, each section parsed once. */
export function collectionModels(repository: RepositorySource, shared = sharedModels(repository)): CollectionModel[] {
  return repository.collections.map((source) => {
    const declaration = objectOf(source.file.value);
    const mounts = mountsOf(declaration);
    const sections = [
      ...source.sections.map((named) => sectionModel(named)),
      ...mounts.flatMap((mount) => mountedSections(mount, source, declaration?.variable, shared)),
    ];
    return {
      repository,
      source,
      declaration,
      sections,
      mounts,
      ordered: mastersFirst(sections.filter((section) => section.body !== undefined)),
    };
  });
}

export function repositoryModel(source: RepositorySource): RepositoryModel {
  const shared = sharedModels(source);
  return { source, collections: collectionModels(source, shared), shared };
}

/** A section a collection mounts from `shared/`, rather than one of its own files. */
export function isMounted(section: SectionModel): boolean {
  return section.file instanceof MountedFile;
}

/** Every file of a repository: its declaration, CRDs, shared folders, and each collection's declaration, sections and examples. */
export function repositoryFiles(repository: RepositorySource): SourceFile[] {
  const collectionFiles = (collection: CollectionSource) => [
    collection.file,
    ...collection.sections.map((section) => section.file),
    ...collection.examples.map((example) => example.file),
  ];
  const sharedFiles = (shared: SharedSource) => [shared.file, ...shared.sections.map((section) => section.file)];
  return [
    repository.file,
    ...repository.crds.map((crd) => crd.file),
    ...repository.shared.flatMap(sharedFiles),
    ...repository.collections.flatMap(collectionFiles),
  ];
}
