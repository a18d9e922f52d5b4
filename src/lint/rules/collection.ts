/** Rules across the sections of one collection: the master section and conflicting members. */
import { mergeTemplates, type MergeConflict } from '../../template/merge.js';
import { type CollectionModel, isMounted } from '../../collection/model.js';
import type { LintReport } from '../report.js';

export function lintMaster(context: CollectionModel, report: LintReport): void {
  // A mounted section sits below the root, so the root's members are the collection's own masters' to write.
  const parsed = context.sections.filter((section) => section.body !== undefined && !isMounted(section));
  if (parsed.length === 0) return;
  const masters = parsed.filter((section) => section.master);
  if (masters.length === 0) {
    report.error(
      context.source.file,
      [],
      `collection ${context.source.name} has no master section`,
      'add a section with "facets": ["master"] that writes apiVersion, kind and metadata; it is always rendered',
    );
  }
  const declaration = context.declaration ?? {};
  for (const master of masters) {
    const body = master.body!;
    for (const member of ['apiVersion', 'kind'] as const) {
      const expected = declaration[member];
      if (typeof expected !== 'string') continue;
      if (body[member] === undefined) {
        report.error(master.file, [], `master section lacks "${member}"`, `add "${member}": "${expected}"`);
      } else if (body[member] !== expected) {
        report.error(
          master.file,
          [member],
          `master section has ${member} ${JSON.stringify(body[member])}, but the collection declares "${expected}"`,
          `write "${member}": "${expected}", or change collection.json`,
        );
      }
    }
    if (body.metadata === undefined) {
      report.error(
        master.file,
        [],
        'master section lacks "metadata"',
        `add "metadata": "{{ ${String(declaration.variable ?? '__VAR__')}.metadata }}"`,
      );
    }
  }
}

/** Any two sections may be rendered together, so no two may write the same non-object member. */
export function lintConflicts(context: CollectionModel, report: LintReport): void {
  const sections = context.sections.filter((section) => section.body !== undefined);
  for (let later = 1; later < sections.length; later++) {
    for (let earlier = 0; earlier < later; earlier++) {
      const conflicts: MergeConflict[] = [];
      mergeTemplates(sections[earlier]!.template, sections[later]!.template, conflicts);
      for (const { at } of conflicts) {
        const other = sections[earlier]!.file;
        const position = other.locate(at);
        report.error(
          sections[later]!.file,
          at,
          `${at.join('.')} is also written by ${other.path}:${position.line}:${position.column}`,
          'two sections may not write the same member unless both write objects; move it into one section, or make one section write a different member',
        );
      }
    }
  }
}
