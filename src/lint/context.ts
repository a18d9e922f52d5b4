/** What lint rules look at: one repository's files, with the parsed parts the rules share. */
import type { TemplateNode } from '../template/body.js';
import type { CollectionSource, NamedFile, RepositorySource } from '../repository/load.js';
import type { JsonObject } from '../util/json.js';

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
