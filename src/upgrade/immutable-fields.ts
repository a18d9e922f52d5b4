/**
 * The fields of built-in kinds that the API server refuses to change on an update, as the data file
 * immutable-fields.json lists them with where each rule comes from (its "$comment" says what the
 * options mean). The file is checked when this module loads: a misspelt entry fails loudly, named.
 * Identity and custom resources' transition rules are judged elsewhere.
 */
import { isDeepStrictEqual } from 'node:util';
import { lookup } from '../request/resolve.js';
import { fromPointer, isPlainObject } from '../util/json.js';
// An import, not a file read: tsc copies the JSON next to the compiled module in lib/ (the CLI and the Docker image run from there).
import data from './immutable-fields.json' with { type: 'json' };

export interface ImmutableViolation {
  /** JSON Pointer of the immutable field in the manifest, e.g. "/provisioner". */
  pointer: string;
  /** What the API server says, e.g. "updates to provisioner are forbidden." */
  message: string;
  /** Where the rule comes from: the data file's source URL and function. */
  source: string;
  /** Other members the API server folds into this field before it validates (a Secret's stringData into data). */
  writtenFrom: string[];
}

type Manifests = 'old' | 'new' | 'both' | 'either';

interface Condition {
  path: string[];
  equals: unknown;
  of: Manifests;
}

interface FieldRule {
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

const RULES = parseImmutableFields(data);

/** What `kubectl apply` of `after` over an object made from `before` would be refused for. Kinds are matched by API group (from apiVersion) and kind, any version. */
export function immutableViolations(apiVersion: string, kind: string, before: unknown, after: unknown): ImmutableViolation[] {
  const core = !apiVersion.includes('/');
  const [stored, storedAfter] = core ? [storedForm(kind, before), storedForm(kind, after)] : [before, after];
  return rulesOf(apiVersion, kind)
    .filter((rule) => refuses(rule, stored, storedAfter))
    .map(({ pointer, message, source }) => ({ pointer, message, source, writtenFrom: (core && FOLDED[kind]?.[pointer]) || [] }));
}

/** Members the API server folds into others before it validates an update, by kind (core group only). */
const FOLDED: Record<string, Record<string, string[]>> = { Secret: { '/data': ['/stringData'] } };

/** What the API server validates an update of a core kind on: a Secret's stringData is written into data, base64-encoded, and never stored. */
function storedForm(kind: string, manifest: unknown): unknown {
  if (kind !== 'Secret' || !isPlainObject(manifest) || !isPlainObject(manifest.stringData)) return manifest;
  const { stringData, ...rest } = manifest;
  const encoded = Object.entries(stringData).map(([name, value]) => [name, Buffer.from(String(value), 'utf8').toString('base64')]);
  return { ...rest, data: { ...(isPlainObject(rest.data) ? rest.data : {}), ...Object.fromEntries(encoded) } };
}

/** The immutable fields listed for a kind (for docs and the diff's legend). */
export function immutableFieldsOf(apiVersion: string, kind: string): ReadonlyArray<{ pointer: string; message: string; source: string }> {
  return rulesOf(apiVersion, kind).map(({ pointer, message, source }) => ({ pointer, message, source }));
}

function key(group: string, kind: string): string {
  return `${group}/${kind}`;
}

function rulesOf(apiVersion: string, kind: string): FieldRule[] {
  const slash = apiVersion.indexOf('/');
  return RULES.get(key(slash < 0 ? '' : apiVersion.slice(0, slash), kind)) ?? [];
}

function refuses(rule: FieldRule, before: unknown, after: unknown): boolean {
  if (!rule.when.every((condition) => holds(condition, before, after))) return false;
  if (rule.unless.some((condition) => holds(condition, before, after))) return false;
  // A JSON null is no value in Kubernetes, as an absent member.
  let was: unknown = lookup(before, rule.path) ?? undefined;
  let is: unknown = lookup(after, rule.path) ?? undefined;
  if (is === undefined && rule.absentKeepsOld) return false;
  if (was === undefined && rule.settableOnce) return false;
  was ??= rule.default;
  is ??= rule.default;
  if (rule.rule === 'no-decrease') return decreases(was, is);
  return rule.unordered && Array.isArray(was) && Array.isArray(is) ? !sameMembers(was, is) : !isDeepStrictEqual(was, is);
}

function holds(condition: Condition, before: unknown, after: unknown): boolean {
  const has = (manifest: unknown) => isDeepStrictEqual(lookup(manifest, condition.path), condition.equals);
  switch (condition.of) {
    case 'old':
      return has(before);
    case 'new':
      return has(after);
    case 'both':
      return has(before) && has(after);
    case 'either':
      return has(before) || has(after);
  }
}

function sameMembers(left: unknown[], right: unknown[]): boolean {
  const within = (items: unknown[], others: unknown[]) => items.every((item) => others.some((other) => isDeepStrictEqual(item, other)));
  return within(left, right) && within(right, left);
}

/** Whether a quantity went down; values that are not quantities are for the manifest check to refuse, not this rule. */
function decreases(was: unknown, is: unknown): boolean {
  const [old, now] = [quantity(was), quantity(is)];
  return old !== undefined && now !== undefined && compareQuantities(now, old) < 0;
}

/** A quantity as an exact decimal: `digits` × 10^-`scale`. */
interface Exact {
  digits: bigint;
  scale: number;
}

/** apimachinery's quantity grammar (as in manifest/kube-formats.ts), with the number and suffix captured. */
const QUANTITY = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?$/;
const BINARY = ['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
/** Exponents beyond any storage size; refusing them keeps the BigInt powers small. */
const LARGEST_EXPONENT = 100;

function quantity(value: unknown): Exact | undefined {
  const match = typeof value === 'number' || typeof value === 'string' ? QUANTITY.exec(String(value)) : null;
  if (match === null) return undefined;
  const [, number = '', suffix = ''] = match;
  const [whole = '', fraction = ''] = number.replace(/^[+-]/, '').split('.');
  let digits = BigInt(`${whole}${fraction}` || '0') * (number.startsWith('-') ? -1n : 1n);
  let scale = fraction.length;
  const exponent = BINARY.includes(suffix) ? 0 : (DECIMAL[suffix] ?? Number(suffix.slice(1)));
  if (Math.abs(exponent) > LARGEST_EXPONENT) return undefined;
  if (BINARY.includes(suffix)) digits *= 1024n ** BigInt(BINARY.indexOf(suffix) + 1);
  if (exponent >= 0) digits *= 10n ** BigInt(exponent);
  else scale -= exponent;
  return { digits, scale };
}

function compareQuantities(left: Exact, right: Exact): number {
  const scale = Math.max(left.scale, right.scale);
  const [a, b] = [left.digits * 10n ** BigInt(scale - left.scale), right.digits * 10n ** BigInt(scale - right.scale)];
  return a < b ? -1 : a > b ? 1 : 0;
}
