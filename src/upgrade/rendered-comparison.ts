/**
 * A release judged by what it renders (CONTRACT §9): every request of the previous release's
 * evidence (upgrade-requests.ts) is rendered by both releases, and each difference is classified as
 * `kubectl apply` of the new manifest over the old object would be taken (classify.ts).
 */
import type { Bundle } from '../bundle/bundle.js';
import { loadCollection } from '../bundle/load.js';
import type { Change } from './compatibility.js';
import { checkExec, type Executable } from '../exec/execute.js';
import type { Problem } from '../request/problems.js';
import { fromPointer, isPathPrefix, isPlainObject, type JsonObject } from '../util/json.js';
import { type ClassifiedDifference, classifyDifferences } from './classify.js';
import { immutableFieldsOf } from './immutable-fields.js';
import { manifestDifferences } from './manifest-diff.js';
import { type UpgradeRequest, upgradeRequests } from './upgrade-requests.js';

export interface RequestComparison {
  request: UpgradeRequest;
  /** What the new release says of a request the old one accepted; empty when it renders it. */
  refused: Problem[];
  differences: ClassifiedDifference[];
}

export interface CollectionComparison {
  name: string;
  kind: string;
  /** The fields an update of the kind may not change (the data file's, or the CRD's transition rules): what was guarded. */
  immutable: string[];
  /** Every request judged, in order: examples first. */
  requests: RequestComparison[];
}

export interface RenderedComparison {
  repository: string;
  apiVersion: string;
  from: string;
  to: string;
  collections: CollectionComparison[];
  /** Collections only the new release has: nothing to compare, but a reviewer reads what is new. */
  added: Array<{ name: string; kind: string; examples: string[] }>;
  /** Collections only the old release has. */
  removed: string[];
}

/** `compiled`: the new release's collections as the build compiled them, by name; those missing are compiled from `after`. */
export function compareRendered(before: Bundle, after: Bundle, compiled?: ReadonlyMap<string, Executable>): RenderedComparison {
  const next = new Map(after.collections.map((collection) => [collection.name, collection]));
  const collections: CollectionComparison[] = [];
  for (const collection of before.collections) {
    const successor = next.get(collection.name);
    if (successor === undefined) continue; // a removed collection is the compatibility check's to refuse
    const old = loadCollection(before, collection, '');
    const now = compiled?.get(successor.name) ?? loadCollection(after, successor, '');
    const rendered = new Map<JsonObject, JsonObject>();
    // Evidence is what a careful caller sent: accepted without a warning of unknown fields.
    const accepted = (body: JsonObject) => {
      const check = checkExec(old, body);
      if (check.problems.length > 0 || check.unknownMembers.length > 0 || check.manifest === undefined) return false;
      rendered.set(body, check.manifest);
      return true;
    };
    const requests = upgradeRequests(collection, successor, accepted).map((request): RequestComparison => {
      const previous = rendered.get(request.body)!;
      const check = checkExec(now, request.body);
      if (check.problems.length > 0 || check.manifest === undefined) return { request, refused: check.problems, differences: [] };
      const differences = manifestDifferences(previous, check.manifest);
      if (differences.length === 0) return { request, refused: [], differences: [] };
      const classified = classifyDifferences(old, now, request.body, previous, check.manifest, differences);
      return { request, refused: [], differences: isSecret(successor) ? classified.map(withoutSecretValues) : classified };
    });
    const guarded = [
      ...immutableFieldsOf(successor.apiVersion, successor.kind),
      ...(old.manifestCheck?.transitionRules ?? []),
      ...(now.manifestCheck?.transitionRules ?? []),
    ];
    const immutable = [...new Set(guarded.map((field) => field.pointer))];
    collections.push({ name: collection.name, kind: collection.kind, immutable, requests });
  }
  const previous = new Set(before.collections.map((collection) => collection.name));
  const added = after.collections
    .filter((collection) => !previous.has(collection.name))
    .map(({ name, kind, examples }) => ({ name, kind, examples: examples.map((example) => example.name) }));
  const removed = before.collections.filter((collection) => !next.has(collection.name)).map((collection) => collection.name);
  const { name: repository, apiVersion } = after.repository;
  return { repository, apiVersion, from: before.repository.release, to: after.repository.release, collections, added, removed };
}

/** What a value change reads as: `changes from "a" to "b"`, `is added: 3`, `is dropped (was true)`. */
function describeDifference(difference: { before?: unknown; after?: unknown }): string {
  if (difference.before === undefined) return `is added: ${shown(difference.after)}`;
  if (difference.after === undefined) return `is dropped (was ${shown(difference.before)})`;
  return `changes from ${shown(difference.before)} to ${shown(difference.after)}`;
}

/** A JSON Pointer as a line of a report shows it: quoted when a member name holds a line break or another control character. */
export function shownPointer(pointer: string): string {
  return /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(pointer) ? JSON.stringify(pointer) : pointer;
}

const SHOWN_LENGTH = 80;
export function shown(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length <= SHOWN_LENGTH ? text : `${text.slice(0, SHOWN_LENGTH - 1)}…`;
}

/** The comparison as the compatibility check's changes: each breaking difference once, with the first request that shows it. */
export function renderedChanges(comparison: RenderedComparison): Change[] {
  const changes: Change[] = [];
  for (const { name, requests } of comparison.collections) {
    const refused = requests.filter((request) => request.refused.length > 0);
    if (refused.length > 0) {
      const [first] = refused;
      const problem = first!.refused[0]!;
      changes.push({
        level: 'breaking',
        text:
          `${name}, ${first!.request.name}: ${comparison.to} refuses what ` +
          `${comparison.from} rendered (${shownPointer(problem.pointer) || '/'} ` +
          `${problem.detail})${more(refused.length)}`,
      });
    }
    const breaking = new Map<string, { first: RequestComparison; difference: ClassifiedDifference; count: number }>();
    const accepted = new Set<string>();
    let changedRequests = 0;
    for (const request of requests) {
      if (request.differences.length > 0) changedRequests++;
      for (const difference of request.differences) {
        if (difference.level !== 'breaking') {
          accepted.add(difference.pointer);
          continue;
        }
        const key = `${difference.class} ${difference.pointer}`;
        const seen = breaking.get(key);
        if (seen === undefined) breaking.set(key, { first: request, difference, count: 1 });
        else seen.count++;
      }
    }
    for (const { first, difference, count } of breaking.values()) {
      changes.push({
        level: 'breaking',
        text: `${name}, ${first.request.name}: ${shownPointer(difference.pointer)} ${describeDifference(difference)}: ${difference.reason}${more(count)}`,
      });
    }
    if (accepted.size > 0) {
      const pointers = [...accepted].map(shownPointer);
      changes.push({
        level: 'minor',
        text:
          `${name} renders differently for ${changedRequests} of ${requests.length} ` +
          `requests (${pointers.slice(0, 5).join(', ')}${pointers.length > 5 ? ` and ${pointers.length - 5} more` : ''})`,
      });
    }
  }
  return changes;
}

const more = (count: number) => (count > 1 ? ` (and ${count - 1} more request${count > 2 ? 's' : ''})` : '');

const isSecret = (collection: { apiVersion: string; kind: string }) => collection.kind === 'Secret' && collection.apiVersion === 'v1';
const SECRET_MEMBERS = [['data'], ['stringData']];

/** A Secret's values stay out of review output and CI logs, as out of the server's logs: their keys show, their values do not. */
function withoutSecretValues(difference: ClassifiedDifference): ClassifiedDifference {
  const at = fromPointer(difference.pointer);
  if (!SECRET_MEMBERS.some((member) => isPathPrefix(member, at))) return difference;
  const hidden = (value: unknown): unknown =>
    isPlainObject(value) ? Object.fromEntries(Object.entries(value).map(([name, member]) => [name, hidden(member)])) : '(a secret value)';
  const { before, after, ...rest } = difference;
  return { ...rest, ...(before === undefined ? {} : { before: hidden(before) }), ...(after === undefined ? {} : { after: hidden(after) }) };
}
