/**
 * A section parsed once: its facets, master flag, description, content parsed for placeholders,
 * placeholder sites, `$values` refinements, required placeholders and placeholder syntax problems.
 * Sections read from a repository and sections read from a bundle are both parsed here.
 */
import { isRefinementMap, type Refinement } from '../schema/input-schema.js';
import { type BodySyntaxError, contentOf, parseBody, type PlaceholderSite, placeholderSites, type TemplateNode } from '../template/body.js';
import type { JsonObject } from '../util/json.js';
import { isMasterFacet, mastersFirst } from './facet.js';

export type ObjectTemplate = Extract<TemplateNode, { kind: 'object' }>;

/** A section as a bundle holds it (or a repository file says it), placeholders unparsed. */
export interface SectionParts {
  name: string;
  /** Entries that are not strings are left out of the parsed section; lint reports them. */
  facets: readonly unknown[];
  description?: string;
  /** The rendered members, in their authored order. */
  content: JsonObject;
  refinements?: Record<string, Refinement>;
  /** JSON Pointers into the manifest of the placeholders that must have a value. */
  required?: readonly string[];
}

export interface ParsedSection {
  name: string;
  facets: string[];
  master: boolean;
  description: string;
  content: JsonObject;
  /** The content with every string parsed for placeholders; a malformed one is left a literal. */
  template: ObjectTemplate;
  sites: PlaceholderSite[];
  /** `$values`, keyed by the reference path without the variable. */
  refinements: Record<string, Refinement>;
  /**
   * JSON Pointers of the placeholders that must have a value: a bundle stores them; for a section
   * read from a repository, the generated input schema decides them (none until then).
   */
  required: readonly string[];
  syntaxErrors: BodySyntaxError[];
}

export function parseSection(parts: SectionParts): ParsedSection {
  const facets = parts.facets.filter((facet): facet is string => typeof facet === 'string');
  const syntaxErrors: BodySyntaxError[] = [];
  const template = parseBody(parts.content, syntaxErrors) as ObjectTemplate;
  return {
    name: parts.name,
    facets,
    master: facets.some(isMasterFacet),
    description: parts.description ?? '',
    content: parts.content,
    template,
    sites: placeholderSites(template),
    refinements: parts.refinements ?? {},
    required: parts.required ?? [],
    syntaxErrors,
  };
}

/** What a section file's body says; its metadata members are read here and nowhere else. */
export function sectionPartsOf(name: string, body: JsonObject): SectionParts {
  return {
    name,
    facets: Array.isArray(body.facets) ? body.facets : [],
    description: typeof body.$description === 'string' ? body.$description : '',
    content: contentOf(body),
    refinements: isRefinementMap(body.$values) ? body.$values : {},
  };
}

/** A bundle's (or a test's) sections, parsed, in render order: masters first (CONTRACT §4). */
export function orderedSections(sections: readonly SectionParts[]): ParsedSection[] {
  return mastersFirst(sections.map(parseSection));
}
