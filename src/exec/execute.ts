/**
 * One exec request against one collection, as the server, the CLI and the build's example checks
 * all run it: request shape, facet selection, variable resolution, input validation, render.
 * Every problem of the request is reported at once (CONTRACT §4, §5).
 */
import type { ManifestCheck } from '../manifest/kube-check.js';
import { LISTED_PROBLEMS, RenderError, renderError, type Problem } from '../request/problems.js';
import type { CollectionRenderPlan, Selection } from '../render/render-plan.js';
import { lookup, resolveVariable, type ResolvedVariable } from '../render/resolve.js';
import type { InputValidator } from '../schema/input-validator.js';
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

export function checkExec(collection: Executable, body: unknown, options: ExecOptions = {}): ExecCheck {
  const problems = requestShapeProblems(body);
  const shapeIsWrong = problems.length > 0;
  const unchecked = { manifest: undefined, problems, shapeIsWrong, unknownMembers: [], valuesId: '' };
  if (!isPlainObject(body)) return unchecked;
  const strict = options.strict === true;
  const { facets, values, globalvars } = body;

  // Every check runs on whatever parts are well-formed, so one answer lists every problem.
  let selection: Selection | undefined;
  try {
    selection = collection.plan.select(Array.isArray(facets) ? facets : []);
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    for (const problem of error.problems) problems.push(problem);
  }

  let manifest: JsonObject | undefined;
  let unknownMembers: string[] = [];
  let valuesId = '';
  if (isPlainObject(values) && (globalvars === undefined || isPlainObject(globalvars))) {
    const resolved = resolveVariable(collection.plan.variable, values, globalvars);
    if ('pointer' in resolved) {
      problems.push(resolved);
    } else {
      valuesId = resolved.id;
      const check = collection.validator.check(resolved.value, toPointer(['values', resolved.id]));
      for (const problem of check.problems) problems.push(problem);
      unknownMembers = check.unknown;
      if (strict) for (const pointer of check.unknown) problems.push({ pointer, detail: 'is not a known field (strict=true rejects unknown fields)' });
      if (selection !== undefined) {
        try {
          const rendered = collection.plan.renderAll(selection, resolved);
          for (const problem of rendered.problems) problems.push(problem);
          if (rendered.problems.length === 0) manifest = rendered.manifest;
          // The kind's check (a CRD's rules too) runs on what rendered even when some values failed,
          // so one answer names every problem. Past what an answer lists, it would find the input's
          // problems again, each at many times the cost: values that broke the input schema break the kind's too.
          if (collection.manifestCheck !== undefined && problems.length < LISTED_PROBLEMS) {
            for (const problem of manifestProblems(collection, selection, resolved, rendered.manifest, rendered.problems.length > 0)) problems.push(problem);
          }
        } catch (error) {
          if (!(error instanceof RenderError)) throw error;
          for (const problem of error.problems) problems.push(problem);
        }
      }
    }
  }
  return { manifest, problems: onePerPointer(problems), shapeIsWrong, unknownMembers, valuesId };
}

/**
 * What the API server's schema would refuse in the rendered manifest, pointed at the request member
 * it came from (CONTRACT §5). What the sections wrote themselves lint refuses at build time; should
 * it still happen, one problem says so without blaming the caller's values.
 */
function manifestProblems(collection: Executable, selection: Selection, resolved: ResolvedVariable, manifest: JsonObject, partial: boolean): Problem[] {
  const found = collection.manifestCheck!.problems(manifest);
  if (found.length === 0) return found;
  const problems: Problem[] = [];
  const ownProblems: string[] = [];
  // A section may take kind from values: never coerce caller data.
  const kind = typeof manifest.kind === 'string' ? manifest.kind : 'object';
  const aKind = `${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind}`;
  for (const problem of found) {
    const at = fromPointer(problem.pointer);
    const source = collection.plan.requestPathOf(selection, at, resolved);
    const facets = lookup(manifest, at) === undefined ? collection.plan.facetsWriting(at) : [];
    const holder = source === undefined && facets.length === 0 ? collection.plan.requestPathHolding(selection, at, resolved) : undefined;
    if (source !== undefined) problems.push({ pointer: toPointer(source), detail: `${problem.detail}: Kubernetes refuses it at ${problem.pointer} of the ${kind}` });
    else if (facets.length > 0) problems.push({ pointer: '/facets', detail: `${aKind} needs ${problem.pointer}: select ${facets.join(' or ')}, whose section writes it` });
    else if (holder !== undefined) problems.push({ pointer: toPointer(holder), detail: `${problem.detail}: Kubernetes refuses ${problem.pointer || 'the whole'} of the ${kind}, made from these values` });
    else ownProblems.push(`${problem.pointer || '/'} ${problem.detail}`);
  }
  // A manifest rendered with some values missing lacks their members: what cannot be traced is that, not the template.
  if (ownProblems.length > 0 && !partial) {
    problems.push({ pointer: '', detail: `the sections of ${collection.plan.collection} render ${aKind} that Kubernetes refuses (${ownProblems.join('; ')}); this is the template's fault, not the request's: tell its authors` });
  }
  return problems;
}

/** One problem per pointer: the first, so the schema's word comes before the render's. */
function onePerPointer(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => !seen.has(problem.pointer) && seen.add(problem.pointer));
}
