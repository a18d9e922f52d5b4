/**
 * The data file immutable-fields.json read into rules by `group/kind`, checked as its "$comment" says
 * the options mean: a misspelt entry fails loudly, named.
 */
import { fromPointer, isPlainObject } from '../util/json.js';

type Manifests = 'old' | 'new' | 'both' | 'either';

export interface Condition {
  path: string[];
  equals: unknown;
  of: Manifests;
}

export interface FieldRule {
  pointer: string;
  path: string[];
  message: string;
  source: string;
  rule: 'immutable' | 'no-decrease';
  default: unknown;
  absentKeepsOld: boolean;
  settableOnce: boolean;
  unordered: boolean;
  when: Condition[];
  unless: Condition[];
}

const FILE = 'src/upgrade/immutable-fields.json';
const TOP_MEMBERS = new Set(['$comment', 'kubernetesVersion', 'kinds']);
const KIND_MEMBERS = new Set(['group', 'kind', 'source', 'note', 'fields']);
const FIELD_MEMBERS = new Set([
  'path',
  'message',
  'source',
  'rule',
  'default',
  'absentKeepsOld',
  'settableOnce',
  'unordered',
  'when',
  'unless',
  'note',
]);
const CONDITION_MEMBERS = new Set(['path', 'equals', 'of']);
const MANIFESTS: readonly Manifests[] = ['old', 'new', 'both', 'either'];

/** The rules of the data file by `group/kind`; throws naming the entry when the file is not as its "$comment" says. */
export function parseImmutableFields(value: unknown): Map<string, FieldRule[]> {
  const fail = (where: string, problem: string): never => {
    throw new Error(`${FILE}: ${where}: ${problem}`);
  };
  const members = (entry: unknown, allowed: Set<string>, where: string): Record<string, unknown> => {
    if (!isPlainObject(entry)) return fail(where, 'must be an object');
    for (const name of Object.keys(entry))
      if (!allowed.has(name)) fail(where, `unknown member "${name}" (known: ${[...allowed].join(', ')})`);
    return entry;
  };
  const text = (entry: Record<string, unknown>, name: string, where: string, pattern = /./): string => {
    const member = entry[name];
    if (typeof member !== 'string' || !pattern.test(member)) return fail(where, `"${name}" must be a string matching ${pattern}`);
    return member;
  };
  const flag = (entry: Record<string, unknown>, name: string, where: string): boolean => {
    if (entry[name] !== undefined && typeof entry[name] !== 'boolean') fail(where, `"${name}" must be true or false`);
    return entry[name] === true;
  };
  const pointer = (entry: Record<string, unknown>, where: string): string[] => {
    const path = fromPointer(text(entry, 'path', where, /^\//));
    if (path.includes('*') || path.includes(''))
      fail(where, `"path" ${String(entry.path)} has a wildcard or empty segment, which the evaluator does not read`);
    return path;
  };
  const conditions = (entry: unknown, fallback: Manifests, where: string): Condition[] => {
    if (entry === undefined) return [];
    const list = Array.isArray(entry) ? entry : [entry];
    if (list.length === 0) fail(where, 'must name at least one condition');
    return list.map((item, index) => {
      const at = Array.isArray(entry) ? `${where}[${index}]` : where;
      const condition = members(item, CONDITION_MEMBERS, at);
      if (!Object.hasOwn(condition, 'equals')) fail(at, 'needs "equals"');
      const of = condition.of ?? fallback;
      if (!MANIFESTS.includes(of as Manifests)) fail(at, `"of" must be one of ${MANIFESTS.join(', ')}`);
      return { path: pointer(condition, at), equals: condition.equals, of: of as Manifests };
    });
  };

  const top = members(value, TOP_MEMBERS, 'the file');
  const comment = [top.$comment].flat();
  if (comment.length === 0 || !comment.every((line) => typeof line === 'string'))
    fail('the file', '"$comment" must be a string or a list of strings');
  if (typeof top.kubernetesVersion !== 'string') fail('the file', '"kubernetesVersion" must be a string such as "1.32"');
  if (!Array.isArray(top.kinds)) fail('the file', '"kinds" must be an array');
  const table = new Map<string, FieldRule[]>();
  (top.kinds as unknown[]).forEach((item, kindIndex) => {
    const kindEntry = members(item, KIND_MEMBERS, `kinds[${kindIndex}]`);
    const group =
      typeof kindEntry.group === 'string'
        ? kindEntry.group
        : fail(`kinds[${kindIndex}]`, '"group" must be a string ("" for the core group)');
    const kind = text(kindEntry, 'kind', `kinds[${kindIndex}]`, /^[A-Z][A-Za-z0-9]*$/);
    const where = `kinds[${kindIndex}] (${group || 'core'} ${kind})`;
    const kindSource = text(kindEntry, 'source', where, /^https:\/\//);
    if (kindEntry.note !== undefined) text(kindEntry, 'note', where);
    if (table.has(key(group, kind))) fail(where, 'is listed twice');
    if (!Array.isArray(kindEntry.fields) || kindEntry.fields.length === 0) fail(where, '"fields" must be a non-empty array');
    const rules = (kindEntry.fields as unknown[]).map((fieldItem, fieldIndex): FieldRule => {
      const at = `${where} fields[${fieldIndex}]`;
      const field = members(fieldItem, FIELD_MEMBERS, at);
      const path = pointer(field, at);
      if (field.rule !== 'immutable' && field.rule !== 'no-decrease') fail(at, '"rule" must be "immutable" or "no-decrease"');
      if (field.note !== undefined) text(field, 'note', at);
      const source = text(field, 'source', at);
      return {
        pointer: field.path as string,
        path,
        message: text(field, 'message', at),
        source: source.startsWith('https://') ? source : `${kindSource} ${source}`,
        rule: field.rule as FieldRule['rule'],
        default: field.default,
        absentKeepsOld: flag(field, 'absentKeepsOld', at),
        settableOnce: flag(field, 'settableOnce', at),
        unordered: flag(field, 'unordered', at),
        when: conditions(field.when, 'old', `${at} when`),
        unless: conditions(field.unless, 'new', `${at} unless`),
      };
    });
    const pointers = rules.map((rule) => rule.pointer);
    const repeated = pointers.find((candidate, index) => pointers.indexOf(candidate) !== index);
    if (repeated !== undefined) fail(where, `lists ${repeated} twice`);
    table.set(key(group, kind), rules);
  });
  return table;
}

/** The table's key of a kind: its API group ("" for core) and kind. */
export function key(group: string, kind: string): string {
  return `${group}/${kind}`;
}
