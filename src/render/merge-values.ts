/**
 * The render-time half of a merge (template/merge.ts): a whole placeholder's object and the objects
 * other sections write into the same member, merged in section order. The caller's value is never
 * written into; a member two parts give must be equal, or the request is refused (nothing is
 * dropped), at the member of the values it came from.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Problem } from '../request/problems.js';
import { lookup } from '../request/resolve.js';
import { isPlainObject, setMember, toPointer } from '../util/json.js';
import { cut } from '../util/text.js';

/** Where a part's members come from: the values (by a placeholder's alternatives), the template, or an object of either. */
export type PartOrigin =
  | { from: 'values'; alternatives: ReadonlyArray<{ path: string[] }> }
  | { from: 'template' }
  | { from: 'object'; members: Record<string, PartOrigin> };

export interface MergeSite {
  /** The manifest member, a JSON Pointer. */
  at: string;
  /** Each part's origin, in part order. */
  origins: PartOrigin[];
}

interface MergeState {
  id: string;
  problems: Problem[];
}

/** The request member a part's member `below` came from, or undefined for one the template wrote. */
function requestPointer(state: MergeState, origin: PartOrigin, root: unknown, below: readonly string[]): string | undefined {
  let node = origin;
  for (let depth = 0; ; depth++) {
    if (node.from === 'template') return undefined;
    if (node.from === 'values') {
      const defined = node.alternatives.find((alternative) => lookup(root, alternative.path) !== undefined) ?? node.alternatives[0]!;
      return toPointer(['values', state.id, ...defined.path, ...below.slice(depth)]);
    }
    if (depth === below.length || !Object.hasOwn(node.members, below[depth]!)) return undefined;
    node = node.members[below[depth]!]!;
  }
}

const isSet = (value: unknown): boolean => value !== undefined && value !== null;

const shown = (value: unknown) => cut(JSON.stringify(value), 80);

function mergeObjects(
  into: Record<string, unknown>,
  from: Record<string, unknown>,
  below: string[],
  conflict: (below: string[], earlier: unknown, later: unknown) => void,
): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const key of Object.keys(into)) setMember(merged, key, into[key]);
  for (const key of Object.keys(from)) {
    const value = from[key];
    // Null is unset (CONTRACT §5): it neither conflicts with nor replaces what another part gives.
    if (!Object.hasOwn(merged, key) || merged[key] === null) setMember(merged, key, value);
    else if (value === null) continue;
    else if (isPlainObject(merged[key]) && isPlainObject(value))
      setMember(merged, key, mergeObjects(merged[key], value, [...below, key], conflict));
    else if (!isDeepStrictEqual(merged[key], value)) conflict([...below, key], merged[key], value);
  }
  return merged;
}

/**
 * The parts (undefined where a part rendered nothing) merged, or undefined when none rendered. A
 * part that is null is unset (CONTRACT §5), as when its section stands alone: the others are merged
 * without it, and null is kept, as written, only when no part gives an object.
 */
export function mergeParts(state: MergeState, site: MergeSite, root: unknown, parts: unknown[]): unknown {
  let merged: Record<string, unknown> | undefined;
  let unset = false;
  parts.forEach((part, index) => {
    if (part === undefined) return;
    if (part === null) {
      unset = true;
      return;
    }
    if (!isPlainObject(part)) {
      const pointer = requestPointer(state, site.origins[index]!, root, []) ?? toPointer(['values', state.id]);
      state.problems.push({ pointer, detail: `must be an object: a selected section also writes members into ${site.at}` });
      return;
    }
    if (merged === undefined) {
      merged = part;
      return;
    }
    merged = mergeObjects(merged, part, [], (below, earlier, later) => {
      // The member merged so far came from the first part that holds it.
      const first = parts.findIndex((other, k) => k < index && isPlainObject(other) && isSet(lookup(other, below)));
      const given = first === -1 ? undefined : requestPointer(state, site.origins[first]!, root, below);
      const taken = requestPointer(state, site.origins[index]!, root, below);
      const member = `${site.at}${toPointer(below)}`;
      if (given !== undefined && taken !== undefined) {
        state.problems.push({
          pointer: taken,
          detail: `is ${shown(later)}, but ${given} of the values is ${shown(earlier)}, and both fill ${member}: give one, or the same in both`,
        });
      } else {
        const [pointer, value, written] = given !== undefined ? [given, earlier, later] : [taken, later, earlier];
        state.problems.push({
          pointer: pointer ?? toPointer(['values', state.id]),
          detail: `is ${shown(value)}, but a selected section writes ${shown(written)} at ${member}: leave it out of the values, or give the same`,
        });
      }
    });
  });
  return merged === undefined && unset ? null : merged;
}
