/**
 * Limits on what one exec body may hold, besides its size: how many `values` entries, and how long
 * any one string (member names included) may be. Each breach is reported with its pointer.
 */
import type { Middleware } from 'koa';
import type { Problem } from '../../render/render-error.js';
import { isPlainObject } from '../../util/json.js';
import type { RequestLimits } from '../config.js';
import { HttpProblem } from '../problem.js';

const REPORTED = 10;

export function stringLengthProblems(body: unknown, maxLength: number): Problem[] {
  const problems: Problem[] = [];
  const stack: Array<[unknown, string]> = [[body, '']];
  while (stack.length > 0 && problems.length < REPORTED) {
    const [node, pointer] = stack.pop()!;
    if (typeof node === 'string') {
      if (node.length > maxLength) problems.push({ pointer, detail: `is ${node.length} characters long; at most ${maxLength}` });
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, child] of Object.entries(node)) {
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
    problems.push(...stringLengthProblems(body, limits.maxStringLength));
    if (problems.length > 0) {
      throw new HttpProblem(422, 'invalid-values', 'Request over limits', `${problems.length} part${problems.length === 1 ? '' : 's'} of the request exceed the server's limits; see errors`, { errors: problems });
    }
    await next();
  };
}
