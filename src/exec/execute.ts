/**
 * One exec request against one collection, as the server, the CLI and the build's example checks
 * all run it: parse (src/request/request-shape.ts), select the sections, resolve the variable
 * (src/request/resolve.ts), validate the input (src/schema/input-validator.ts), render.
 * Every problem of the request is reported at once (CONTRACT §4, §5).
 */
import type { ManifestCheck } from '../manifest/kube-check.js';
import { LISTED_PROBLEMS, RenderError, renderError, type Problem } from '../request/problems.js';
import type { CollectionRenderPlan, Selection } from '../render/render-plan.js';
import { resolveVariable, type ResolvedVariable } from '../request/resolve.js';
import type { InputValidator } from '../schema/input-validator.js';
import { execRequestProblems } from '../request/request-shape.js';
import { fromPointer, isPlainObject, toPointer, type JsonObject } from '../util/json.js';

export interface Executable {
  plan: CollectionRenderPlan;
  validator: InputValidator;
  /** The kind's own schema; absent for kinds kubernetes-models does not know. */
  manifestCheck: ManifestCheck | undefined;
}

export interface ExecResult {
  manifest: JsonObject;
  /** JSON Pointers of input members the schema does not know. */
  unknownMembers: string[];
  /** The key of values the collection's variable read. */
  valuesId: string;
}

/** What one exec request renders, or every problem it has (one per pointer, in the order found). */
export interface ExecCheck {
  manifest: JsonObject | undefined;
  problems: Problem[];
  /** The body itself is not an exec request: facets, values or globalvars of the wrong type. */
  shapeIsWrong: boolean;
  unknownMembers: string[];
  valuesId: string;
}

/** `strict`: input members the schema does not know are refused, as `kubectl --validate=strict` refuses them; nothing else changes. */
export interface ExecOptions {
  strict?: boolean;
}

export function execute(collection: Executable, body: unknown, options: ExecOptions = {}): ExecResult {
  const { manifest, problems, shapeIsWrong, unknownMembers, valuesId } = checkExec(collection, body, options);
  if (problems.length > 0 || manifest === undefined) throw renderError(shapeIsWrong ? 'Invalid request' : 'Invalid input values', problems);
  return { manifest, unknownMembers, valuesId };
}

/**
 * The request walk after auth: parse (the body's shape), then select, resolve, validate and render,
 * each a step below that reads what the ones before it handed on and never reaches back.
 */
export function checkExec(collection: Executable, body: unknown, options: ExecOptions = {}): ExecCheck {
  const problems = execRequestProblems(body);
  if (!isPlainObject(body)) return { manifest: undefined, problems, shapeIsWrong: true, unknownMembers: [], valuesId: '' };
  return checkRequest(collection, body, problems, options);
}

/** An exec request past parse: its members as sent, of which the steps read only the well-formed. */
export interface ExecRequest {
  facets?: unknown;
  values?: unknown;
  globalvars?: unknown;
}

/**
 * The steps after parse, for a request whose shape's problems are `problems` (a batch checks its
 * shared members once, and each resource's facets). Every step runs on whatever parts are
 * well-formed, so one answer lists every problem.
 */
export function checkRequest(collection: Executable, request: ExecRequest, problems: Problem[], options: ExecOptions = {}): ExecCheck {
  const check: ExecCheck = { manifest: undefined, problems, shapeIsWrong: problems.length > 0, unknownMembers: [], valuesId: '' };
  // Where each step's problems start: a later step does not say again what an earlier one said of a member.
  const steps = [problems.length];
  const selection = select(collection, request.facets, problems);
  steps.push(problems.length);
  const resolved = resolve(collection, request, problems);
  steps.push(problems.length);
  if (resolved !== undefined) {
    check.valuesId = resolved.id;
    check.unknownMembers = validate(collection, resolved, problems, options.strict === true);
    steps.push(problems.length);
    if (selection !== undefined) check.manifest = render(collection, selection, resolved, problems, steps);
  }
  // The kind's check is the step after render's (steps: shape, select, resolve, validate, render).
  check.problems = firstStepPerPointer(problems, steps, steps.length === 5 ? 5 : -1);
  return check;
}

/** The sections the facets include; the shape's check has named the entries that are not strings. */
function select(collection: Executable, facets: unknown, problems: Problem[]): Selection | undefined {
  try {
    return collection.plan.select(Array.isArray(facets) ? facets : []);
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    for (const problem of error.problems) problems.push(problem);
    return undefined;
  }
}

/** The values entry the collection's variable reads, once values and globalvars are objects. */
function resolve(collection: Executable, { values, globalvars }: ExecRequest, problems: Problem[]): ResolvedVariable | undefined {
  if (!isPlainObject(values) || !(globalvars === undefined || isPlainObject(globalvars))) return undefined;
  const resolved = resolveVariable(collection.plan.variable, values, globalvars);
  if (!('pointer' in resolved)) return resolved;
  problems.push(resolved);
  return undefined;
}

/** The input object against the collection's schema; answers the members the schema does not know. */
function validate(collection: Executable, resolved: ResolvedVariable, problems: Problem[], strict: boolean): string[] {
  const check = collection.validator.check(resolved.value, toPointer(['values', resolved.id]));
  for (const problem of check.problems) problems.push(problem);
  const refused = 'is not a known field (strict=true rejects unknown fields)';
  if (strict) for (const pointer of check.unknown) problems.push({ pointer, detail: refused });
  return check.unknown;
}

/** The manifest, when it renders without a problem; then the kind's check of what rendered. */
function render(
  collection: Executable,
  selection: Selection,
  resolved: ResolvedVariable,
  problems: Problem[],
  steps: number[],
): JsonObject | undefined {
  let manifest: JsonObject | undefined;
  try {
    const rendered = collection.plan.renderAll(selection, resolved);
    for (const problem of rendered.problems) problems.push(problem);
    steps.push(problems.length);
    if (rendered.problems.length === 0) manifest = rendered.manifest;
    // The kind's check (a CRD's rules too) runs on what rendered even when some values failed,
    // so one answer names every problem. Past what an answer lists, it would find the input's
    // problems again, each at many times the cost: values that broke the input schema break the kind's too.
    if (collection.manifestCheck !== undefined && problems.length < LISTED_PROBLEMS) {
      const partial = rendered.problems.length > 0;
      for (const problem of manifestProblems(collection, selection, resolved, rendered.manifest, partial)) problems.push(problem);
    }
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    for (const problem of error.problems) problems.push(problem);
  }
  return manifest;
}

/**
 * What the API server's schema would refuse in the rendered manifest, pointed at the request member
 * it came from (CONTRACT §5). What the sections wrote themselves lint refuses at build time; should
 * it still happen, one problem says so without blaming the caller's values.
 */
function manifestProblems(
  collection: Executable,
  selection: Selection,
  resolved: ResolvedVariable,
  manifest: JsonObject,
  partial: boolean,
): Problem[] {
  const found = collection.manifestCheck!.problems(manifest, partial);
  if (found.length === 0) return found;
  const problems: Problem[] = [];
  const ownProblems: string[] = [];
  // A section may take kind from values: never coerce caller data.
  const kind = typeof manifest.kind === 'string' ? manifest.kind : 'object';
  const aKind = `${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind}`;
  for (const problem of found) {
    const origin = collection.plan.originOf(selection, fromPointer(problem.pointer), resolved, manifest);
    if (origin.from === 'request')
      problems.push({
        pointer: toPointer(origin.path),
        detail: `${problem.detail}: Kubernetes refuses it at ${problem.pointer} of the ${kind}`,
      });
    else if (origin.from === 'facets')
      problems.push({
        pointer: '/facets',
        detail: `${aKind} needs ${problem.pointer}: select ${origin.facets.join(' or ')}, whose section writes it`,
      });
    else if (origin.from === 'values')
      problems.push({
        pointer: toPointer(origin.path),
        detail: `${problem.detail}: Kubernetes refuses ${problem.pointer || 'the whole'} of the ${kind}, made from these values`,
      });
    else ownProblems.push(`${problem.pointer || '/'} ${problem.detail}`);
  }
  // A manifest rendered with some values missing lacks their members: what cannot be traced is that, not the template.
  if (ownProblems.length > 0 && !partial) {
    problems.push({
      pointer: '',
      detail:
        `the sections of ${collection.plan.collection} render ${aKind} ` +
        `that Kubernetes refuses (${ownProblems.join('; ')}); this is ` +
        `the template's fault, not the request's: tell its authors`,
    });
  }
  return problems;
}

/**
 * The problems of the first step that names a pointer, so the schema's word comes before the
 * render's and the kind's; at one pointer a step says one thing (ajv's type and format of one value
 * are one mistake), but the kind's check says all, as the API server lists them (two CEL rules one
 * object breaks are two errors), each once.
 */
function firstStepPerPointer(problems: Problem[], steps: number[], kindStep: number): Problem[] {
  const named = new Map<string, number>();
  const said = new Set<string>();
  let step = 0;
  return problems.filter((problem, index) => {
    while (step < steps.length && steps[step]! <= index) step++;
    const first = named.get(problem.pointer);
    if (first === undefined) named.set(problem.pointer, step);
    else if (first !== step || step !== kindStep) return false;
    const text = `${problem.pointer}\u0000${problem.detail}`;
    return !said.has(text) && said.add(text);
  });
}
