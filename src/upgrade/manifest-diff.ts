/**
 * The differences between two rendered manifests, member by member: what a reviewer reads and what
 * the upgrade judge classifies. Arrays are compared by index, as `kubectl apply` replaces them.
 */
import { isDeepStrictEqual } from 'node:util';
import { isPlainObject, toPointer } from '../util/json.js';

export interface Difference {
  /** JSON Pointer into the manifests. */
  pointer: string;
  /** The old value; absent when the new release adds the member. */
  before?: unknown;
  /** The new value; absent when the new release drops the member. */
  after?: unknown;
}

export function manifestDifferences(before: unknown, after: unknown): Difference[] {
  const differences: Difference[] = [];
  const visit = (old: unknown, now: unknown, path: Array<string | number>) => {
    if (isPlainObject(old) && isPlainObject(now)) {
      for (const name of Object.keys(old)) {
        if (Object.hasOwn(now, name)) visit(old[name], now[name], [...path, name]);
        else differences.push({ pointer: toPointer([...path, name]), before: old[name] });
      }
      for (const name of Object.keys(now))
        if (!Object.hasOwn(old, name)) differences.push({ pointer: toPointer([...path, name]), after: now[name] });
    } else if (Array.isArray(old) && Array.isArray(now)) {
      const common = Math.min(old.length, now.length);
      for (let index = 0; index < common; index++) visit(old[index], now[index], [...path, index]);
      for (let index = common; index < old.length; index++) differences.push({ pointer: toPointer([...path, index]), before: old[index] });
      for (let index = common; index < now.length; index++) differences.push({ pointer: toPointer([...path, index]), after: now[index] });
    } else if (!isDeepStrictEqual(old, now)) {
      differences.push({ pointer: toPointer(path), before: old, after: now });
    }
  };
  visit(before, after, []);
  return differences;
}
