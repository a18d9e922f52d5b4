/**
 * How Kubernetes would take `kubectl apply` of the new release's manifest over the object the old
 * release made, difference by difference (CONTRACT §9): a new identity (another object, the old one
 * left running), an immutable field (refused), a member the caller set and no longer gets (removed
 * from the live object), or a change the API server accepts. The first three break callers.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ChangeLevel } from '../build/compatibility.js';
import type { Executable } from '../exec/execute.js';
import { lookup, resolveVariable } from '../render/resolve.js';
import { fromPointer, isPathPrefix, toPointer, type JsonObject } from '../util/json.js';
import { immutableViolations } from './immutable-fields.js';
import type { Difference } from './manifest-diff.js';

export type DifferenceClass = 'identity' | 'immutable' | 'dropped' | 'accepted';

export interface ClassifiedDifference extends Difference {
  class: DifferenceClass;
  level: ChangeLevel;
  /** Why it has its class, in the API server's or kubectl's terms. */
  reason: string;
}

/** The members that name the caller's object: a change makes `kubectl apply` create another. */
const IDENTITY = ['/apiVersion', '/kind', '/metadata/name', '/metadata/namespace'];

interface Breach {
  pointer: string;
  class: 'identity' | 'immutable';
  reason: string;
}

export function classifyDifferences(old: Executable, now: Executable, body: JsonObject, before: JsonObject, after: JsonObject, differences: Difference[]): ClassifiedDifference[] {
  const kind = String(before.kind);
  const breaches: Breach[] = [];
  for (const pointer of IDENTITY) {
    const [was, is] = [lookup(before, fromPointer(pointer)), lookup(after, fromPointer(pointer))];
    if (!isDeepStrictEqual(was, is)) breaches.push({ pointer, class: 'identity', reason: identityReason(pointer, kind, was, is) });
  }
  for (const violation of immutableViolations(String(before.apiVersion), kind, before, after)) {
    breaches.push({ pointer: violation.pointer, class: 'immutable', reason: `${violation.message} (${kind} ${violation.pointer} is immutable: ${violation.source})` });
  }
  // A custom resource's immutable fields are its CRD's transition rules; the new release's CRD is the one applied with it.
  for (const problem of now.manifestCheck?.transitionProblems(before, after) ?? []) {
    breaches.push({ pointer: problem.pointer, class: 'immutable', reason: `${problem.detail} (a transition rule of the ${kind} CRD refuses the update)` });
  }
  return differences.map((difference) => {
    const at = fromPointer(difference.pointer);
    const breach = breaches.find((candidate) => related(fromPointer(candidate.pointer), at));
    if (breach !== undefined) return { ...difference, class: breach.class, level: 'breaking', reason: breach.reason };
    const callerSet = difference.after === undefined ? callerMember(old, body, at) : undefined;
    if (callerSet !== undefined) {
      return { ...difference, class: 'dropped', level: 'breaking', reason: `the new release no longer renders what the caller set at ${callerSet}: kubectl apply removes it from the live ${kind}` };
    }
    return { ...difference, class: 'accepted', level: 'minor', reason: 'the API server accepts it; callers see other output, so at least a minor release' };
  });
}

const related = (a: string[], b: string[]) => isPathPrefix(a, b) || isPathPrefix(b, a);

function identityReason(pointer: string, kind: string, was: unknown, is: unknown): string {
  const shown = (value: unknown) => (value === undefined ? 'none' : JSON.stringify(value));
  if (pointer === '/metadata/name') return `renames the ${kind} from ${shown(was)} to ${shown(is)}: kubectl apply creates a new one beside the caller's, which keeps running`;
  if (pointer === '/metadata/namespace') return `moves the ${kind} from namespace ${shown(was)} to ${shown(is)}: kubectl apply creates a new one there and leaves the caller's`;
  if (pointer === '/kind') return `renders a ${shown(is)} instead of a ${shown(was)}: kubectl apply creates it beside the caller's object`;
  return `changes the apiVersion from ${shown(was)} to ${shown(is)}: the caller's object and its tooling are named by it`;
}

/** The request member a manifest member of the old release came from, when the caller set it. */
function callerMember(old: Executable, body: JsonObject, at: string[]): string | undefined {
  const resolved = resolveVariable(old.plan.variable, body.values, body.globalvars);
  if ('pointer' in resolved) return undefined;
  const selection = old.plan.select(Array.isArray(body.facets) ? body.facets : []);
  const source = old.plan.requestPathOf(selection, at, resolved);
  return source !== undefined && lookup(body, source) !== undefined ? toPointer(source) : undefined;
}
