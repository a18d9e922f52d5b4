/**
 * Limits on what one exec body may hold, besides its size: how many `values` entries, how long any
 * one string (member names included) may be, and how many items any one array or object of the
 * input values may hold.
 * Each breach is reported with its pointer. The item limit bounds the work of validation: ajv's
 * error lists grow by copying, so thousands of failing items in one array cost quadratic time.
 */
import type { Middleware } from 'koa';
import type { Problem } from '../../render/render-error.js';
import { isPlainObject } from '../../util/json.js';
import type { RequestLimits } from '../config.js';
import { HttpProblem } from '../problem.js';

const REPORTED = 10;

export function sizeProblems(body: unknown, maxLength: number, maxItems: number): Problem[] {
  const problems: Problem[] = [];
  const stack: Array<[unknown, string]> = [[body, '']];
  while (stack.length > 0 && problems.length < REPORTED) {
    const [node, pointer] = stack.pop()!;
    if (typeof node === 'string') {
      if (node.length > maxLength) problems.push({ pointer, detail: `is ${node.length} characters long; at most ${maxLength}` });
    } else if (typeof node === 'object' && node !== null) {
      const entries = Object.entries(node);
      // Only input values are validated against schemas; facet lists are checked by one lookup each.
      if (entries.length > maxItems && pointer.startsWith('/values/')) problems.push({ pointer, detail: `has ${entries.length} ${Array.isArray(node) ? 'items' : 'members'}; at most ${maxItems}` });
      for (const [key, child] of entries) {
        const childPointer = `${pointer}/${key.length > 64 ? key.slice(0, 64) + '…' : key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (key.length > maxLength) problems.push({ pointer: childPointer, detail: `is a member name ${key.length} characters long; at most ${maxLength}` });
        stack.push([child, childPointer]);
      }
    }
  }
  return problems;
}

export function requestLimits(limits: RequestLimits): Middleware {
  return async (ctx, next) => {
    const body = ctx.state.body as Record<string, unknown> | undefined;
    const problems: Problem[] = [];
    if (isPlainObject(body) && isPlainObject(body.values)) {
      const entries = Object.keys(body.values).length;
      if (entries > limits.maxValuesEntries) problems.push({ pointer: '/values', detail: `has ${entries} entries; at most ${limits.maxValuesEntries}` });
    }
    for (const problem of sizeProblems(body, limits.maxStringLength, limits.maxItems)) problems.push(problem);
    if (problems.length > 0) {
      throw new HttpProblem(422, 'invalid-values', 'Request over limits', `${problems.length} part${problems.length === 1 ? '' : 's'} of the request exceed the server's limits; see errors`, { errors: problems });
    }
    await next();
  };
}
