/**
 * Shared sections mounted into a collection. A repository's `shared/<name>/` holds sections written
 * once, relative to a mount point, whose placeholders read a neutral variable (shared.json's
 * `variable`); a collection.json that lists `"shared": [{ "name": "<name>", "at": "spec.template.spec" }]`
 * gets each of them as its own section: content placed at `at`, every placeholder reading the
 * collection's variable at the same path. Everything after the model (lint's cross-file and typed
 * rules, the build, bundles, the server) then sees ordinary sections of that collection.
 */
import { type ParsedTemplate, parseTemplate, PlaceholderSyntaxError, type Reference } from '../template/placeholder.js';
import { type Position, SourceFile } from '../repository/source-file.js';
import { isPlainObject, type JsonObject, type JsonValue } from '../util/json.js';

/** One entry of collection.json's `shared`: which shared folder, mounted at which member path. */
export interface Mount {
  shared: string;
  /** Member names from the manifest's root; empty mounts at the root. */
  at: string[];
}

export const SHARED_MEMBER = 'shared';
/** A mount point: member names of letters, digits, "_" and "-" joined by dots (none all digits: it is no array index), or "" for the root. */
export const MOUNT_POINT_PATTERN = /^$|^(?!(.*\.)?[0-9]+(\.|$))[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** The well-formed mounts of a collection declaration; lint reports the others (rules/shared.ts). */
export function mountsOf(declaration: JsonObject | undefined): Mount[] {
  const entries = declaration?.[SHARED_MEMBER];
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry) =>
    isPlainObject(entry) && typeof entry.name === 'string' && typeof entry.at === 'string' && MOUNT_POINT_PATTERN.test(entry.at)
      ? [{ shared: entry.name, at: entry.at === '' ? [] : entry.at.split('.') }]
      : [],
  );
}

/**
 * A shared section file as one collection sees it: the same path and text, so every message points
 * at the shared file's own line, with manifest paths read relative to the mount point.
 */
export class MountedFile extends SourceFile {
  constructor(
    shared: SourceFile,
    readonly collection: string,
    readonly at: readonly string[],
  ) {
    super(shared.path, shared.text);
  }

  /** Said after every message about this file, since the problem may exist in this collection alone. */
  get note(): string {
    return `as collection ${this.collection} mounts it at ${this.at.length === 0 ? 'the root' : this.at.join('.')}`;
  }

  override locate(path: readonly (string | number)[]): Position {
    return super.locate(this.relative(path));
  }

  override locateInString(path: readonly (string | number)[], offset: number): Position {
    return super.locateInString(this.relative(path), offset);
  }

  private relative(path: readonly (string | number)[]): readonly (string | number)[] {
    const inside = this.at.every((segment, index) => String(path[index]) === segment);
    return inside ? path.slice(this.at.length) : [];
  }
}

/** The mounted body of a shared section file: content placed at the mount, references and `$values` keys rewritten. */
export function mountedBody(body: JsonObject, from: string, to: string, at: readonly string[]): JsonObject {
  const mounted: JsonObject = {};
  const content: JsonObject = {};
  for (const [name, value] of Object.entries(body)) {
    if (name === 'facets' || name === '$description') mounted[name] = value;
    else if (name === '$values') mounted[name] = isPlainObject(value) ? prefixKeys(value, at) : value;
    else if (!name.startsWith('$')) content[name] = rewriteValue(value, from, to, at);
  }
  let placed: JsonObject = content;
  for (const segment of [...at].reverse()) placed = { [segment]: placed };
  return { ...mounted, ...placed };
}

function prefixKeys(values: JsonObject, at: readonly string[]): JsonObject {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [[...at, key].join('.'), value]));
}

function rewriteValue(value: JsonValue, from: string, to: string, at: readonly string[]): JsonValue {
  if (Array.isArray(value)) return value.map((item) => rewriteValue(item, from, to, at));
  if (isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, rewriteValue(member, from, to, at)]));
  return typeof value === 'string' ? rewriteString(value, from, to, at) : value;
}

/** A template string with each reference to `from` reading `to` under the mount; a malformed one stays as written (lint reports it once, in the shared file). */
function rewriteString(text: string, from: string, to: string, at: readonly string[]): string {
  let template: ParsedTemplate;
  try {
    template = parseTemplate(text);
  } catch (error) {
    if (error instanceof PlaceholderSyntaxError) return text;
    throw error;
  }
  const reference = (ref: Reference) => (ref.variable === from ? [to, ...at, ...ref.path] : [ref.variable, ...ref.path]).join('.');
  const expression = (references: Reference[]) => `{{ ${references.map(reference).join(' ?? ')} }}`;
  if (template.kind === 'literal') return text;
  if (template.kind === 'whole') return expression(template.expression.references);
  return template.parts.map((part) => (typeof part === 'string' ? part : expression(part.references))).join('');
}

/** A section's content with every reference to `variable` reading `__VAR__`: two files that copy each other read alike. */
export function neutralContent(content: JsonObject, variable: string): JsonValue {
  return rewriteValue(content, variable, '__VAR__', []);
}
