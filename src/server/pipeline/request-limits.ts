/**
 * Limits on what one exec or batch body may hold, besides its size: how many `values` entries, how
 * long any one string (member names included) may be, how many items any one array or object may
 * hold (facet lists too; `values` and `resources` have limits of their own), and how many JSON
 * values the input values hold in all (countJsonValues: a long pointer counts more).
 * Each breach is reported with its pointer. The last two bound the work of checking a body: every
 * facet and every value may be a problem, and every problem is found before any is reported.
 */
import { firstInBodyOrder, type Problem } from '../../request/problems.js';
import { valuesOf } from '../../request/request-shape.js';
import { countJsonValues, escapePointerSegment, POINTER_CHARACTERS_PER_VALUE } from '../../util/json.js';
import { cut } from '../../util/text.js';
import type { RequestLimits } from '../config.js';
import { HttpProblem } from '../problem.js';

const REPORTED = 10;

/** Members of the body with limits of their own: MAX_VALUES_ENTRIES and MAX_RESOURCES. */
const COUNTED_APART = new Set(['values', 'resources']);

type SizeLimits = Pick<RequestLimits, 'maxStringLength' | 'maxItems'>;

/** The pointer of the member at `keys` (the names from the body down to it), each name cut to a readable length. */
function pointerOf(keys: readonly string[]): string {
  let pointer = '';
  for (const key of keys) pointer += `/${escapePointerSegment(cut(key, 64))}`;
  return pointer;
}

/**
 * Every string, member name and array or object over its limit, depth first in the body's order
 * (/resources/0 before /resources/1), the first REPORTED of them. The walk keeps only the names
 * above the value it is at: a pointer is made when a limit is broken, not for every member.
 */
export function sizeProblems(body: unknown, limits: SizeLimits): Problem[] {
  const problems: Problem[] = [];
  walk(body, [], limits, problems);
  return problems.slice(0, REPORTED);
}

function walk(node: unknown, keys: string[], limits: SizeLimits, problems: Problem[]): void {
  if (typeof node === 'string') {
    if (node.length > limits.maxStringLength)
      problems.push({ pointer: pointerOf(keys), detail: `is ${node.length} characters long; at most ${limits.maxStringLength}` });
    return;
  }
  if (typeof node !== 'object' || node === null) return; // numbers, booleans and null have no limit to break
  const names = Object.keys(node);
  if (names.length > limits.maxItems && !(keys.length === 1 && COUNTED_APART.has(keys[0]!))) {
    // What is inside is not looked at: the whole array or object is over the limit.
    const what = Array.isArray(node) ? 'items' : 'members';
    problems.push({ pointer: pointerOf(keys), detail: `has ${names.length} ${what}; at most ${limits.maxItems}` });
    return;
  }
  for (const name of names) {
    if (name.length > limits.maxStringLength) {
      keys.push(name);
      problems.push({
        pointer: pointerOf(keys),
        detail: `is a member name ${name.length} characters long; at most ${limits.maxStringLength}`,
      });
      keys.pop();
    }
  }
  for (let index = 0; index < names.length && problems.length < REPORTED; index++) {
    const name = names[index]!;
    const value = (node as Record<string, unknown>)[name];
    if (typeof value !== 'string' && (typeof value !== 'object' || value === null)) continue;
    keys.push(name);
    walk(value, keys, limits, problems);
    keys.pop();
  }
}

/** What a breach of MAX_VALUES_NODES by a whole body says. */
function valuesNodesDetail(max: number): string {
  return (
    `holds more than ${max} JSON values (objects, arrays, strings, ` +
    `numbers, booleans and nulls, each counting one more per ${POINTER_CHARACTERS_PER_VALUE} ` +
    `characters of its JSON Pointer); at most ${max}`
  );
}

/** Throws the 422 that names every part of the body over a limit. */
export function checkRequestLimits(body: unknown, limits: RequestLimits): void {
  // Only what is there is counted: whether the body is a request is the request shape's to say, later.
  const values = valuesOf(body);
  const problems: Problem[] = [];
  if (values !== undefined) {
    const entries = Object.keys(values).length;
    if (entries > limits.maxValuesEntries)
      problems.push({ pointer: '/values', detail: `has ${entries} entries; at most ${limits.maxValuesEntries}` });
  }
  for (const problem of sizeProblems(body, limits)) problems.push(problem);
  if (values !== undefined) {
    const nodes = countJsonValues(values, '/values'.length, limits.maxValuesNodes);
    if (nodes > limits.maxValuesNodes) problems.push({ pointer: '/values', detail: valuesNodesDetail(limits.maxValuesNodes) });
  }
  if (problems.length > 0) {
    throw new HttpProblem(
      'invalid-values',
      problems.length === 1
        ? "1 part of the request exceeds the server's limits; see errors"
        : `${problems.length} parts of the request exceed the server's limits; see errors`,
      // In body order, as every 422 lists its problems: a member before what is inside it.
      { errors: firstInBodyOrder(problems, problems.length) },
      {},
      'Request over limits',
    );
  }
}
