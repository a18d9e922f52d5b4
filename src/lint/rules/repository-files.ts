/** Rules for the files that name a repository and its collections: repository.json and collection.json. */
import { SCHEMAS_DIR } from '../../bundle/dist-layout.js';
import { IDENTITY_FIELDS, type IdentityField } from '../../repository/identity-fields.js';
import type { RepositorySource } from '../../repository/load.js';
import type { SourceFile } from '../../repository/source-file.js';
import { isPlainObject, type JsonObject } from '../../util/json.js';
import type { CollectionModel, SharedModel } from '../../collection/model.js';
import { SHARED_MEMBER } from '../../collection/mount.js';
import type { LintReport } from '../report.js';

/** Each field as its declaration says, its description the hint; a member no field names is ignored, with a warning. */
function checkFields(file: SourceFile, value: JsonObject, fields: IdentityField[], report: LintReport, also: string[] = []): void {
  for (const field of fields) {
    const member = value[field.name];
    const hint = field.description;
    if (field.flag === true) {
      if (member !== undefined && typeof member !== 'boolean')
        report.error(file, [field.name], `"${field.name}" must be true or false`, hint);
    } else if (member === undefined) {
      report.error(file, [], `missing "${field.name}"`, hint);
    } else if (typeof member !== 'string' || member.trim() === '') {
      report.error(file, [field.name], `"${field.name}" must be a non-empty string`, hint);
    } else if (field.pattern && !field.pattern.test(member)) {
      report.error(file, [field.name], `"${field.name}" is "${member}", which is not of the expected form`, hint);
    }
  }
  const known = new Set([...fields.map((field) => field.name), ...also]);
  for (const name of Object.keys(value)) {
    if (!known.has(name)) report.warning(file, [name], `unknown member "${name}" is ignored`, `known members: ${[...known].join(', ')}`);
  }
}

function asObject(file: SourceFile, what: string, report: LintReport): JsonObject | undefined {
  if (file.value === undefined) return undefined; // the syntax rule reports it
  if (!isPlainObject(file.value)) {
    report.error(file, [], `${what} must be a JSON object`, `see docs/authoring.md, "Files of a repository"`);
    return undefined;
  }
  return file.value as JsonObject;
}

/** A repository or collection is addressed by its folder's name: the file must say the same. */
function nameIsFolder(file: SourceFile, value: JsonObject, folder: string, what: string, report: LintReport): void {
  if (typeof value.name === 'string' && value.name !== folder) {
    report.error(
      file,
      ['name'],
      `name "${value.name}" differs from the folder name "${folder}"`,
      `rename the folder or the ${what} so they agree`,
    );
  }
}

export function lintRepositoryDeclaration(repository: RepositorySource, report: LintReport): void {
  const value = asObject(repository.file, 'repository.json', report);
  if (value === undefined) return;
  checkFields(repository.file, value, IDENTITY_FIELDS.repository, report);
  nameIsFolder(repository.file, value, repository.name, 'repository', report);
  if (repository.name === SCHEMAS_DIR) {
    report.error(
      repository.file,
      [],
      `a repository may not be named "${SCHEMAS_DIR}": dist/${SCHEMAS_DIR}/ holds the editor schemas`,
      'rename the folder and "name" in repository.json',
    );
  }
  for (const dir of repository.strayDirs) {
    report.warning(
      repository.file,
      [],
      `folder ${dir} has no collection.json and is ignored`,
      'add a collection.json to make it a collection, or remove the folder',
    );
  }
}

export function lintCollectionDeclaration(context: CollectionModel, report: LintReport): void {
  const { source } = context;
  const value = context.declaration;
  if (value === undefined) return;
  checkFields(source.file, value, IDENTITY_FIELDS.collection, report, [SHARED_MEMBER]);
  nameIsFolder(source.file, value, source.name, 'collection', report);
  if (context.sections.length === 0) {
    report.error(source.file, [], `collection ${source.name} has no sections`, `add section files under ${source.dir}/sections/`);
  }
}

/** Two collections of one repository may not share a variable: one globalvars map serves them all. */
export function lintVariablesUnique(contexts: CollectionModel[], report: LintReport): void {
  const owners = new Map<string, string>();
  for (const context of contexts) {
    const variable = context.declaration?.variable;
    if (typeof variable !== 'string') continue;
    const owner = owners.get(variable);
    if (owner !== undefined) {
      report.error(
        context.source.file,
        ['variable'],
        `variable ${variable} is already the variable of collection ${owner}`,
        'give each collection its own variable, e.g. __<KIND>_ID__',
      );
    } else {
      owners.set(variable, context.source.name);
    }
  }
}

/** shared.json: named as its folder, with the neutral variable its sections read. */
export function lintSharedDeclaration(shared: SharedModel, report: LintReport): void {
  const { file, name } = shared.source;
  const value = asObject(file, 'shared.json', report);
  if (value === undefined) return;
  checkFields(file, value, IDENTITY_FIELDS.shared, report);
  nameIsFolder(file, value, name, 'shared folder', report);
}
