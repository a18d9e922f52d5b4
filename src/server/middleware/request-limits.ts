/**
 * Limits on what one exec or batch body may hold, besides its size: how many `values` entries, how
 * long any one string (member names included) may be, how many items any one array or object may
 * hold (facet lists too; `values` and `resources` have limits of their own), and how many JSON
 * values the input values hold in all (countJsonValues: a long pointer counts more).
 * Each breach is reported with its pointer. The last two bound the work of checking a body: every
 * facet and every value may be a problem, and every problem is found before any is reported.
 */
import type { Problem } from '../../request/problems.js';
import { valuesOf } from '../../request/request-shape.js';
import { countJsonValues, escapePointerSegment, POINTER_CHARACTERS_PER_VALUE } from '../../util/json.js';
import { cut } from '../../util/text.js';
import type { RequestLimits } from '../config.js';
import { HttpProblem } from '../problem.js';

const REPORTED = 10;

/** A value of the body on the walk: its pointer is made from its parents only when it breaks a limit. */
interface Visit {
  node: unknown;
  parent: Visit | undefined;
  key: string;
}

/** Members of the body with limits of their own: MAX_VALUES_ENTRIES and MAX_RESOURCES. */
const COUNTED_APART = new Set(['values', 'resources']);

function pointerOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent !== undefined; at = at.parent) keys.push(escapePointerSegment(cut(at.key, 64)));
  return keys
    .reverse()
    .map((key) => `/${key}`)
    .join('');
}

export function sizeProblems(body: unknown, limits: Pick<RequestLimits, 'maxStringLength' | 'maxItems'>): Problem[] {
  const problems: Problem[] = [];
  const stack: Visit[] = [{ node: body, parent: undefined, key: '' }];
  while (stack.length > 0 && problems.length < REPORTED) {
    const visit = stack.pop()!;
    const { node } = visit;
    if (typeof node === 'string') {
      if (node.length > limits.maxStringLength)
        problems.push({ pointer: pointerOf(visit), detail: `is ${node.length} characters long; at most ${limits.maxStringLength}` });
    } else if (typeof node === 'object' && node !== null) {
      const keys = Object.keys(node);
      const topLevel = visit.parent !== undefined && visit.parent.parent === undefined;
      if (keys.length > limits.maxItems && !(topLevel && COUNTED_APART.has(visit.key))) {
        // What is inside is not looked at: the whole array or object is over the limit.
        problems.push({
          pointer: pointerOf(visit),
          detail: `has ${keys.length} ${Array.isArray(node) ? 'items' : 'members'}; at most ${limits.maxItems}`,
        });
        continue;
      }
      for (const key of keys) {
        const value = (node as Record<string, unknown>)[key];
        const child: Visit = { node: value, parent: visit, key };
        if (key.length > limits.maxStringLength)
          problems.push({
            pointer: pointerOf(child),
            detail: `is a member name ${key.length} characters long; at most ${limits.maxStringLength}`,
          });
        // Numbers, booleans and null have no limit to break.
        if (typeof value === 'string' || (typeof value === 'object' && value !== null)) stack.push(child);
      }
    }
  }
  return problems.slice(0, REPORTED);
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
      422,
      'invalid-values',
      'Request over limits',
      `${problems.length} part${problems.length === 1 ? '' : 's'} of the request exceed the server's limits; see errors`,
      { errors: problems },
    );
  }
}
