/**
 * How Kubernetes would take `kubectl apply` of the new release's manifest over the object the old
 * release made, difference by difference (CONTRACT §9): a new identity (another object, the old one
 * left running), an immutable field (refused), a member the caller set and no longer gets (removed
 * from the live object), a field a CRD rule guards that cannot be run here (unknown, so not
 * accepted), or a change the API server accepts. All but the last break callers.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ChangeLevel } from './compatibility.js';
import type { Executable } from '../exec/execute.js';
import { lookup, resolveVariable } from '../request/resolve.js';
import { fromPointer, isPathPrefix, toPointer, type JsonObject } from '../util/json.js';
import { immutableViolations } from './immutable-fields.js';
import type { Difference } from './manifest-diff.js';

export type DifferenceClass = 'identity' | 'immutable' | 'unchecked' | 'dropped' | 'accepted';

export interface ClassifiedDifference extends Difference {
  class: DifferenceClass;
  level: ChangeLevel;
  /** Why it has its class, in the API server's or kubectl's terms. */
  reason: string;
}

/** The members that name the caller's object: a change makes `kubectl apply` create another. */
const IDENTITY = ['/apiVersion', '/kind', '/metadata/name', '/metadata/namespace'];

interface Breach {
  /** Path segments; `*` matches any list element or map value. */
  at: string[];
  class: 'identity' | 'immutable' | 'unchecked';
  reason: string;
}

export function classifyDifferences(
  old: Executable,
  now: Executable,
  body: JsonObject,
  before: JsonObject,
  after: JsonObject,
  differences: Difference[],
): ClassifiedDifference[] {
  const breaches = breachesOf(old, now, before, after);
  return differences.map((difference) => {
    const at = fromPointer(difference.pointer);
    const breach = breaches.find(
      (candidate) => related(candidate.at, at) && (candidate.class !== 'unchecked' || ranOn(candidate.at, difference)),
    );
    if (breach !== undefined) return { ...difference, class: breach.class, level: 'breaking', reason: breach.reason };
    const callerSet = difference.after === undefined ? callerMember(old, body, at) : undefined;
    if (callerSet !== undefined) {
      return {
        ...difference,
        class: 'dropped',
        level: 'breaking',
        reason: `the new release no longer renders what the caller set at ${callerSet}: kubectl apply removes it from the live ${before.kind}`,
      };
    }
    return {
      ...difference,
      class: 'accepted',
      level: 'minor',
      reason: 'the API server accepts it; callers see other output, so at least a minor release',
    };
  });
}

function breachesOf(old: Executable, now: Executable, before: JsonObject, after: JsonObject): Breach[] {
  const kind = String(before.kind);
  const breaches: Breach[] = [];
  for (const pointer of IDENTITY) {
    const [was, is] = [lookup(before, fromPointer(pointer)), lookup(after, fromPointer(pointer))];
    if (!isDeepStrictEqual(was, is))
      breaches.push({ at: fromPointer(pointer), class: 'identity', reason: identityReason(pointer, kind, was, is) });
  }
  for (const violation of immutableViolations(String(before.apiVersion), kind, before, after)) {
    const reason = `${violation.message} (${kind} ${violation.pointer} is immutable: ${violation.source})`;
    for (const pointer of [violation.pointer, ...violation.writtenFrom])
      breaches.push({ at: fromPointer(pointer), class: 'immutable', reason });
  }
  // A custom resource's immutable fields are its CRD's transition rules. The cluster may still have
  // the old release's CRD when the objects are updated, or already the new one: both must pass.
  const crds = [
    { check: old.manifestCheck, release: 'previous' },
    { check: now.manifestCheck, release: 'new' },
  ];
  for (const { check, release } of crds) {
    for (const problem of check?.transitionProblems(before, after) ?? []) {
      breaches.push({
        at: fromPointer(problem.pointer),
        class: 'immutable',
        reason: `${problem.detail} (a transition rule of the ${kind} CRD of the ${release} release refuses the update)`,
      });
    }
    for (const rule of check?.uncheckedTransitionRules ?? []) {
      breaches.push({
        at: fromPointer(rule.at),
        class: 'unchecked',
        reason:
          `the ${kind} CRD of the ${release} release guards it with the ` +
          `transition rule ${JSON.stringify(rule.rule)}, which cannot be ` +
          `run here (${rule.reason}); the API server runs it on this update, ` +
          `so the change is not known to be safe`,
      });
    }
  }
  return breaches;
}

/** Whether a difference and a breach concern the same member: one is at or below the other; `*` matches any segment. */
function related(pattern: string[], path: string[]): boolean {
  const length = Math.min(pattern.length, path.length);
  for (let index = 0; index < length; index++) if (pattern[index] !== '*' && pattern[index] !== path[index]) return false;
  return true;
}

/** A transition rule runs where its member is in both objects: on a difference below it, or on a changed value at it. */
function ranOn(pattern: string[], difference: Difference): boolean {
  const depth = fromPointer(difference.pointer).length;
  return depth > pattern.length || (depth === pattern.length && difference.before !== undefined && difference.after !== undefined);
}

function identityReason(pointer: string, kind: string, was: unknown, is: unknown): string {
  const shown = (value: unknown) => (value === undefined ? 'none' : JSON.stringify(value));
  if (pointer === '/metadata/name')
    return `renames the ${kind} from ${shown(was)} to ${shown(is)}: kubectl apply creates a new one beside the caller's, which keeps running`;
  if (pointer === '/metadata/namespace')
    return `moves the ${kind} from namespace ${shown(was)} to ${shown(is)}: kubectl apply creates a new one there and leaves the caller's`;
  if (pointer === '/kind') return `renders a ${shown(is)} instead of a ${shown(was)}: kubectl apply creates it beside the caller's object`;
  return `changes the apiVersion from ${shown(was)} to ${shown(is)}: the caller's object and its tooling are named by it`;
}

/** The request member the caller set that a removed manifest member held: at it, above it, or, for a removed object, below it. */
function callerMember(old: Executable, body: JsonObject, at: string[]): string | undefined {
  const resolved = resolveVariable(old.plan.variable, body.values, body.globalvars);
  if ('pointer' in resolved) return undefined;
  const selection = old.plan.select(Array.isArray(body.facets) ? body.facets : []);
  const callerSet = (manifestPath: readonly string[]) => {
    const source = old.plan.requestPathOf(selection, manifestPath, resolved);
    return source !== undefined && lookup(body, source) !== undefined ? toPointer(source) : undefined;
  };
  const own = callerSet(at);
  if (own !== undefined) return own;
  for (const site of selection.sites) {
    if (!isPathPrefix(at, site.at)) continue;
    const below = callerSet(site.at);
    if (below !== undefined) return below;
  }
  return undefined;
}
