/**
 * The render-time half of a merge (template/merge.ts): a whole placeholder's object and the objects
 * other sections write into the same member, merged in section order. The caller's value is never
 * written into; a member both give must be equal, or the request is refused (nothing is dropped).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Problem } from '../request/problems.js';
import { lookup } from '../request/resolve.js';
import { isPlainObject, setMember, toPointer } from '../util/json.js';
import { cut } from '../util/text.js';

export interface MergeSite {
  /** The placeholder's alternatives (none when only objects meet, which lint keeps conflict-free). */
  alternatives: Array<{ path: string[] }>;
  /** The manifest member, a JSON Pointer. */
  at: string;
}

interface MergeState {
  id: string;
  problems: Problem[];
}

/** The request member the placeholder's value (or a member `below` it) came from. */
function requestPointer(state: MergeState, site: MergeSite, root: unknown, below: readonly string[]): string {
  const defined = site.alternatives.find((alternative) => lookup(root, alternative.path) !== undefined) ?? site.alternatives[0];
  return toPointer(['values', state.id, ...(defined?.path ?? []), ...below]);
}

const shown = (value: unknown) => cut(JSON.stringify(value), 80);

function mergeObjects(
  into: Record<string, unknown>,
  from: Record<string, unknown>,
  below: string[],
  conflict: (below: string[], value: unknown, written: unknown) => void,
): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const key of Object.keys(into)) setMember(merged, key, into[key]);
  for (const key of Object.keys(from)) {
    const value = from[key];
    if (!Object.hasOwn(merged, key)) setMember(merged, key, value);
    else if (isPlainObject(merged[key]) && isPlainObject(value))
      setMember(merged, key, mergeObjects(merged[key], value, [...below, key], conflict));
    else if (!isDeepStrictEqual(merged[key], value)) conflict([...below, key], merged[key], value);
  }
  return merged;
}

/** The parts (undefined where a part rendered nothing) merged, or undefined when none rendered. */
export function mergeParts(state: MergeState, site: MergeSite, root: unknown, parts: unknown[], placeholder: number): unknown {
  let merged: Record<string, unknown> | undefined;
  parts.forEach((part, index) => {
    if (part === undefined) return;
    const pointer = (below: string[] = []) => requestPointer(state, site, root, below);
    if (!isPlainObject(part)) {
      state.problems.push({ pointer: pointer(), detail: `must be an object: a selected section also writes members into ${site.at}` });
      return;
    }
    if (merged === undefined) {
      merged = part;
      return;
    }
    // Whichever came first, the path below the placeholder's value names the member in the request.
    const callerFirst = placeholder < index;
    merged = mergeObjects(merged, part, [], (below, earlier, later) => {
      const [given, written] = callerFirst ? [earlier, later] : [later, earlier];
      state.problems.push({
        pointer: pointer(below),
        detail: `is ${shown(given)}, but a selected section writes ${shown(written)} at ${site.at}${toPointer(below)}: leave it out of the values, or give the same`,
      });
    });
  });
  return merged;
}
