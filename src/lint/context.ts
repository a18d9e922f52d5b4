/**
 * What lint rules look at: one repository's files, with the parsed parts the rules share. Built
 * from loaded files alone, so a rule can be run by itself, with no Kubernetes types generated.
 */
import { MASTER_FACET } from '../collection/facet.js';
import type { CollectionSource, NamedFile, RepositorySource } from '../repository/load.js';
import type { SourceFile } from '../repository/source-file.js';
import { contentOf, parseBody, type TemplateNode } from '../template/body.js';
import { isPlainObject, type JsonObject } from '../util/json.js';

export interface SectionContext extends NamedFile {
  /** The section object; undefined when the file is not a JSON object. */
  section: JsonObject | undefined;
  /** Parsed content, for files that are JSON objects. */
  template: Extract<TemplateNode, { kind: 'object' }> | undefined;
  facets: string[];
  master: boolean;
}

export interface CollectionContext {
  repository: RepositorySource;
  source: CollectionSource;
  /** collection.json when it is a JSON object. */
  declaration: JsonObject | undefined;
  sections: SectionContext[];
}

function sectionContext(named: { name: string; file: SourceFile }): SectionContext {
  const value = named.file.value;
  if (!isPlainObject(value)) return { ...named, section: undefined, template: undefined, facets: [], master: false };
  const section = value as JsonObject;
  const facets = Array.isArray(section.facets) ? section.facets.filter((facet): facet is string => typeof facet === 'string') : [];
  const template = parseBody(contentOf(section)) as SectionContext['template'];
  return { ...named, section, template, facets, master: facets.includes(MASTER_FACET) };
}

/** The contexts of a repository's collections, each section parsed once. */
export function collectionContexts(repository: RepositorySource): CollectionContext[] {
  return repository.collections.map((source) => ({
    repository,
    source,
    declaration: isPlainObject(source.file.value) ? (source.file.value as JsonObject) : undefined,
    sections: source.sections.map(sectionContext),
  }));
}
