/**
 * ajv merges the errors of a referenced schema into its caller's with Array.concat, copying every
 * error found so far at each failing reference: with allErrors, a thousand failing items under a
 * thousand failing parents cost a hundred million copies, seconds for one request. This rewrites
 * that merge in ajv's generated code (its `code.process` hook) to append in place, as ajv's own
 * pushes already do to the same arrays; the errors are the same, in the same order.
 */
const MERGE = 'vErrors.concat(';
const APPEND = 'function appendErrors(to, from) { for (let index = 0; index < from.length; index++) to.push(from[index]); return to; }\n';

export function appendErrorsInPlace(code: string): string {
  return code.includes(MERGE) ? APPEND + code.replaceAll(MERGE, 'appendErrors(vErrors, ') : code;
}
