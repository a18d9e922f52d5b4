/** Rules for one section file: its shape, facets, reserved members, member names and placeholders. */
import { isContentMember } from '../../template/body.js';
import { referenceToString, VARIABLE_PATTERN } from '../../template/placeholder.js';
import { FACET_PATTERN } from '../../collection/facet.js';
import { didYouMean } from '../../util/did-you-mean.js';
import { isPlainObject, type JsonObject, type JsonValue } from '../../util/json.js';
import type { CollectionModel, SectionModel } from '../../collection/model.js';
import { FORBIDDEN_NAMES, RESERVED_MEMBERS } from '../../repository/file-grammar.js';
import type { LintReport } from '../report.js';

export function lintIsObject(section: SectionModel, report: LintReport): void {
  if (section.file.value !== undefined && section.body === undefined)
    report.error(section.file, [], 'a section must be a JSON object', 'see docs/authoring.md, "Sections"');
}

export function lintFacets(section: SectionModel, report: LintReport): void {
  const { file } = section;
  const facets = section.body?.facets;
  if (section.body === undefined) return;
  if (facets === undefined) {
    report.error(
      file,
      [],
      'section has no "facets"',
      'add "facets": ["master"] for a core section, or e.g. ["addon:spec", "addon:ports"] for an optional feature',
    );
    return;
  }
  if (!Array.isArray(facets)) {
    report.error(file, ['facets'], '"facets" must be an array of facet names', 'e.g. "facets": ["addon:spec", "addon:ports"]');
    return;
  }
  if (facets.length === 0) {
    report.error(
      file,
      ['facets'],
      '"facets" is empty, so nothing can select this section',
      'name at least one facet: "master", or "addon:<name>"',
    );
  }
  const seen = new Set<string>();
  facets.forEach((facet, index) => {
    if (typeof facet !== 'string') {
      report.error(
        file,
        ['facets', index],
        `facet ${JSON.stringify(facet)} is not a string`,
        'facet names are strings such as "addon:ports"',
      );
    } else if (!FACET_PATTERN.test(facet)) {
      const suggestion = facet.toLowerCase().replace(/[^a-z0-9:-]/g, '-');
      report.error(
        file,
        ['facets', index],
        `facet "${facet}" is not "master" or "addon:<name>"`,
        `names are lowercase letters, digits and "-" after "addon:"${didYouMean(FACET_PATTERN.test(suggestion) ? suggestion : undefined)}`,
      );
    } else if (seen.has(facet)) {
      report.warning(file, ['facets', index], `facet "${facet}" is listed twice`, 'remove the repeated entry');
    }
    if (typeof facet === 'string') seen.add(facet);
  });
}

export function lintReservedMembers(section: SectionModel, report: LintReport): void {
  const value = section.body;
  if (value === undefined) return;
  for (const name of Object.keys(value)) {
    if (name.startsWith('$') && !RESERVED_MEMBERS.has(name)) {
      report.warning(
        section.file,
        [name],
        `unknown metadata member "${name}" is ignored`,
        `members starting with "$" are reserved; known ones: ${[...RESERVED_MEMBERS].join(', ')}`,
      );
    }
  }
  if (value.$description !== undefined && typeof value.$description !== 'string') {
    report.error(section.file, ['$description'], '"$description" must be a string', 'one sentence saying what the section adds');
  }
  if (!Object.keys(value).some(isContentMember)) {
    report.warning(
      section.file,
      [],
      'section renders nothing: it has no content members',
      'add the manifest members this section writes, e.g. "spec": { ... }',
    );
  }
}

/** Member names are never templated and never reach into prototypes. */
export function lintMemberNames(section: SectionModel, report: LintReport): void {
  const visit = (value: JsonValue, at: string[]): void => {
    if (Array.isArray(value)) value.forEach((item, index) => visit(item, [...at, String(index)]));
    else if (isPlainObject(value)) {
      for (const [name, member] of Object.entries(value)) {
        if (FORBIDDEN_NAMES.has(name))
          report.error(
            section.file,
            [...at, name],
            `member name "${name}" is not allowed`,
            'rename the member; these names would reach into JavaScript prototypes',
          );
        else if (name.includes('{{'))
          report.error(
            section.file,
            [...at, name],
            `member name "${name}" contains "{{"`,
            'member names are never templated: move the placeholder into the value',
          );
        visit(member, [...at, name]);
      }
    }
  };
  if (section.body === undefined) return;
  for (const [name, member] of Object.entries(section.body)) if (isContentMember(name)) visit({ [name]: member } as JsonObject, []);
}

/** `owner` names whose variable the placeholders must read: a collection's, or a shared folder's (shared.json). */
export function lintPlaceholders(
  context: Pick<CollectionModel, 'declaration'>,
  section: SectionModel,
  report: LintReport,
  owner = "this collection's",
): void {
  if (section.body === undefined) return;
  for (const { at, error } of section.syntaxErrors) {
    report.error(section.file, section.file.locateInString(at, error.offset), `malformed placeholder: ${error.message}`, error.hint);
  }
  const declared = context.declaration?.variable;
  // A malformed variable is reported on collection.json; comparing against it would only echo that.
  const variable = typeof declared === 'string' && VARIABLE_PATTERN.test(declared) ? declared : undefined;
  for (const site of section.sites) {
    for (const expression of site.expressions) {
      for (const reference of expression.references) {
        const forbidden = reference.path.find((segment) => FORBIDDEN_NAMES.has(segment));
        if (forbidden !== undefined) {
          report.error(
            section.file,
            site.at,
            `placeholder path ${reference.path.join('.')} uses "${forbidden}"`,
            'rename the input member; these names would reach into JavaScript prototypes',
          );
        }
        if (variable !== undefined && reference.variable !== variable) {
          report.error(
            section.file,
            site.at,
            `placeholder reads ${referenceToString(reference)}, but ${owner} variable is ${variable}`,
            `write {{ ${variable}.${reference.path.join('.')} }}`,
          );
        }
      }
    }
  }
}
