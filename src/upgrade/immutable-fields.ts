/**
 * The fields of built-in kinds that the API server refuses to change on an update, as the data file
 * immutable-fields.json lists them with where each rule comes from (its "$comment" says what the
 * options mean). The file is checked when this module loads (immutable-fields-file.ts reads it).
 * Identity and custom resources' transition rules are judged elsewhere.
 */
import { isDeepStrictEqual } from 'node:util';
import { lookup } from '../request/resolve.js';
import { isPlainObject } from '../util/json.js';
import { type Condition, type FieldRule, key, parseImmutableFields } from './immutable-fields-file.js';
import { decreases } from './quantities.js';
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
