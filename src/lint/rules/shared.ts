/** Rules for sections written once: the mounts a collection.json lists, and section files that copy one another. */
import { canonicalJson } from '../../bundle/canonical-json.js';
import { type CollectionModel, isMounted, type RepositoryModel, type SectionModel } from '../../collection/model.js';
import { MOUNT_POINT_PATTERN, neutralContent, SHARED_MEMBER } from '../../collection/mount.js';
import { FORBIDDEN_NAMES } from '../../repository/file-grammar.js';
import { closestName, didYouMean } from '../../util/did-you-mean.js';
import { isPlainObject, type JsonValue } from '../../util/json.js';
import type { LintReport } from '../report.js';

const MOUNT_HINT =
  'e.g. "shared": [{ "name": "pod-template", "at": "spec.template.spec" }]: a folder under shared/, and the member path its sections are written under';

/** Each entry of collection.json's `shared` names a folder under shared/ and a member path, once. */
export function lintMounts(collection: CollectionModel, model: RepositoryModel, report: LintReport): void {
  const entries = collection.declaration?.[SHARED_MEMBER];
  if (entries === undefined) return;
  const file = collection.source.file;
  if (!Array.isArray(entries)) return report.error(file, [SHARED_MEMBER], `"${SHARED_MEMBER}" must be an array of mounts`, MOUNT_HINT);
  const folders = model.shared.map((shared) => shared.source.name);
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const at = [SHARED_MEMBER, index];
    if (!isPlainObject(entry) || typeof entry.name !== 'string' || typeof entry.at !== 'string')
      return report.error(file, at, 'a mount is an object with a string "name" and a string "at"', MOUNT_HINT);
    for (const name of Object.keys(entry))
      if (name !== 'name' && name !== 'at')
        report.warning(file, [...at, name], `unknown member "${name}" is ignored`, 'known members: name, at');
    if (!folders.includes(entry.name))
      report.error(
        file,
        [...at, 'name'],
        `no shared folder ${entry.name} in this repository`,
        `add ${collection.repository.dir}/shared/${entry.name}/shared.json${didYouMean(closestName(entry.name, folders))}`,
      );
    else if (seen.has(entry.name)) report.error(file, [...at, 'name'], `shared folder ${entry.name} is mounted twice`, 'mount it once');
    seen.add(entry.name);
    const forbidden = entry.at.split('.').find((segment) => FORBIDDEN_NAMES.has(segment));
    if (!MOUNT_POINT_PATTERN.test(entry.at) || forbidden !== undefined)
      report.error(
        file,
        [...at, 'at'],
        `mount point "${entry.at}" is not a path of member names`,
        'member names of letters, digits, "_" and "-" joined by dots (none all digits, none a prototype name), e.g. "spec.template.spec", or "" for the root',
      );
  });
  lintMountedNames(collection, report);
}

/** A mounted section is named `<folder>.<section>`: a file of the collection's own by that name would be two sections in one. */
function lintMountedNames(collection: CollectionModel, report: LintReport): void {
  const own = new Map(collection.sections.filter((section) => !isMounted(section)).map((section) => [section.name, section]));
  for (const section of collection.sections.filter(isMounted)) {
    const clash = own.get(section.name);
    if (clash !== undefined)
      report.error(
        clash.file,
        [],
        `section ${section.name} is also the name of a section mounted from ${section.file.path}`,
        'rename this file',
      );
  }
}

/** Values a content writes; a section of one (`"immutable": "{{ __X__.immutable }}"`) is the idiom, shorter than a mount. */
function leaves(value: JsonValue): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + leaves(item), 0);
  if (isPlainObject(value)) return Object.values(value).reduce((sum: number, member) => sum + leaves(member), 0);
  return 1;
}

/**
 * No section file is a copy of another: the same content of two values or more, whatever variable it
 * reads, belongs under shared/ once.
 */
export function lintCopies(model: RepositoryModel, report: LintReport): void {
  const files: Array<{ section: SectionModel; variable: unknown }> = [
    ...model.shared.flatMap((shared) => shared.sections.map((section) => ({ section, variable: shared.variable }))),
    ...model.collections.flatMap((collection) =>
      collection.sections
        .filter((section) => !isMounted(section))
        .map((section) => ({ section, variable: collection.declaration?.variable })),
    ),
  ];
  const first = new Map<string, SectionModel>();
  for (const { section, variable } of files) {
    if (section.body === undefined || leaves(section.content) < 2 || report.hasErrorsIn(section.file.path)) continue;
    const key = canonicalJson(typeof variable === 'string' ? neutralContent(section.content, variable) : section.content);
    const original = first.get(key);
    if (original === undefined) first.set(key, section);
    else
      report.warning(
        section.file,
        [],
        `section writes the same content as ${original.file.path}, reading its own variable`,
        'write it once in a folder under shared/ and list that folder in each collection.json\'s "shared" (docs/authoring.md, "Shared sections")',
      );
  }
}
