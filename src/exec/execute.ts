/**
 * One exec request against one collection, as the server, the CLI and the build's example checks
 * all run it: request shape, facet selection, variable resolution, input validation, render.
 * Every problem of the request is reported at once (CONTRACT §4, §5).
 */
import { RenderError, type Problem } from '../render/render-error.js';
import type { CollectionRenderPlan, Selection } from '../render/render-plan.js';
import { resolveVariable } from '../render/resolve.js';
import type { InputValidator } from '../schema/input-validator.js';
import { isPlainObject, toPointer, type JsonObject } from '../util/json.js';

export interface Executable {
  plan: CollectionRenderPlan;
  validator: InputValidator;
}

export interface ExecRequest {
  facets?: string[];
  values: Record<string, unknown>;
  globalvars?: Record<string, string>;
}

export interface ExecResult {
  manifest: JsonObject;
  /** JSON Pointers of input members the schema does not know. */
  unknownMembers: string[];
}

/** Checks the shape of an exec request body: `facets` strings, `values` objects, `globalvars` strings. */
export function requestShapeProblems(body: unknown, prefix = ''): Problem[] {
  if (!isPlainObject(body)) return [{ pointer: prefix, detail: 'the request body must be a JSON object with facets, values and globalvars' }];
  const problems: Problem[] = [];
  const { facets, values, globalvars } = body;
  if (facets !== undefined) {
    if (!Array.isArray(facets)) problems.push({ pointer: `${prefix}/facets`, detail: 'must be an array of facet names' });
    else facets.forEach((facet, index) => typeof facet !== 'string' && problems.push({ pointer: `${prefix}/facets/${index}`, detail: 'must be a string' }));
  }
  if (values === undefined) problems.push({ pointer: `${prefix}/values`, detail: 'is required: an object mapping an input id to its input object' });
  else if (!isPlainObject(values)) problems.push({ pointer: `${prefix}/values`, detail: 'must be an object mapping an input id to its input object' });
  else for (const [id, value] of Object.entries(values)) if (!isPlainObject(value)) problems.push({ pointer: `${prefix}${toPointer(['values', id])}`, detail: 'must be an object' });
  if (globalvars !== undefined) {
    if (!isPlainObject(globalvars)) problems.push({ pointer: `${prefix}/globalvars`, detail: 'must be an object mapping a template variable to a key of values' });
    else for (const [name, id] of Object.entries(globalvars)) if (typeof id !== 'string') problems.push({ pointer: `${prefix}${toPointer(['globalvars', name])}`, detail: 'must be a string naming a key of values' });
  }
  return problems;
}

export function execute(collection: Executable, body: unknown, options: { strict?: boolean } = {}): ExecResult {
  const shape = requestShapeProblems(body);
  if (shape.length > 0) throw new RenderError('Invalid request', shape.sort((a, b) => comparePointers(a.pointer, b.pointer)));
  const request = body as unknown as ExecRequest;
  const strict = options.strict === true;
  const problems: Problem[] = [];

  let selection: Selection | undefined;
  try {
    selection = collection.plan.select(request.facets ?? []);
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    problems.push(...error.problems);
  }

  const resolved = resolveVariable(collection.plan.variable, request.values, request.globalvars);
  if ('pointer' in resolved) throw new RenderError('Invalid input values', [...problems, resolved]);

  const check = collection.validator.check(resolved.value, toPointer(['values', resolved.id]));
  problems.push(...check.problems);
  if (strict) for (const pointer of check.unknown) problems.push({ pointer, detail: 'is not a known field (strict=true rejects unknown fields)' });

  let manifest: JsonObject | undefined;
  if (selection !== undefined) {
    try {
      manifest = collection.plan.renderSelected(selection, resolved, strict);
    } catch (error) {
      if (!(error instanceof RenderError)) throw error;
      // A path the schema already reported needs no second message.
      const reported = new Set(problems.map((problem) => problem.pointer));
      problems.push(...error.problems.filter((problem) => !reported.has(problem.pointer)));
    }
  }
  if (problems.length > 0 || manifest === undefined) throw new RenderError('Invalid input values', problems.sort((a, b) => comparePointers(a.pointer, b.pointer)));
  return { manifest, unknownMembers: check.unknown };
}

/** Orders problems as they appear in a body: by pointer, array indexes numerically. */
export function comparePointers(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const x = left[index]!;
    const y = right[index]!;
    if (x === y) continue;
    if (/^\d+$/.test(x) && /^\d+$/.test(y)) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return left.length - right.length;
}
