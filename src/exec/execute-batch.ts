/**
 * Several resources in one call: each resource names a collection (and facets, and optionally an
 * API version, a release and globalvars of its own); all share one `values` and one `globalvars`,
 * so one values object can describe a whole application, and a resource's own globalvars, merged
 * over the body's, let many resources of one collection read different entries. Nothing is rendered
 * unless everything renders: the error lists every problem of every resource, with pointers into
 * /resources/N/…, /values/… and /globalvars/….
 */
import type { Bundle } from '../bundle/bundle.js';
import type { LoadedCollection } from '../bundle/load.js';
import { type BundleRegistry, lookupProblem } from '../bundle/registry.js';
import { DEFAULT_API_VERSION } from '../request/request-shape.js';
import { AnswerTooLarge } from '../manifest/format.js';
import { distinctProblems, RenderError, renderError, type Problem } from '../request/problems.js';
import { type BatchResource, batchRequestProblems, facetsProblems, resourceProblems } from '../request/request-shape.js';
import { resolveVariable } from '../request/resolve.js';
import { countJsonValues, isPlainObject, type JsonObject, POINTER_CHARACTERS_PER_VALUE, toPointer } from '../util/json.js';
import { cut } from '../util/text.js';
import { WorkBudget } from '../util/work-budget.js';
import { checkRequest } from './execute.js';

/** Finds a resource's collection, or says what is wrong with the names, as a problem under `pointer`. */
export type FindCollection = (resource: BatchResource, pointer: string) => LoadedCollection | Problem;

/** A resource's collection among `vendor`'s in `registry`, or the problem at the member that names what is not there. */
export function findInRegistry(
  registry: BundleRegistry,
  vendor: string,
  resource: BatchResource,
  pointer: string,
): LoadedCollection | Problem {
  const { repository, apiVersion = DEFAULT_API_VERSION, collection, release } = resource;
  const lookup = registry.lookup(vendor, repository, apiVersion, collection, release);
  return 'found' in lookup ? lookup.found : lookupProblem(`${pointer}/${lookup.missing}`, lookup);
}

export interface BatchResult {
  manifests: JsonObject[];
  /** The bundles that rendered, in request order, without repeats. */
  bundles: Bundle[];
  unknownMembers: string[];
  /** values entries no resource read. */
  unusedValues: string[];
}

export interface BatchLimits {
  /** Unknown input members are refused (ExecOptions). */
  strict?: boolean;
  maxResources: number;
  /** JSON values the resources may read in all, each resource counting the values entry it reads. */
  maxNodes?: number;
  /** Bytes of the answer: the values entries the resources read may not add up to more. */
  maxAnswerBytes?: number;
  /** Milliseconds the resources' checks may take in all; the resource not reached by then is refused. */
  maxCheckMs?: number;
}

/** A resource that names a collection that exists: it will be checked and rendered. */
interface Run {
  index: number;
  pointer: string;
  resource: BatchResource;
  found: LoadedCollection;
  /** The body's globalvars with the resource's own over them. */
  globalvars: unknown;
}

export function executeBatch(find: FindCollection, body: unknown, options: BatchLimits): BatchResult {
  // parse: the body's own members, values and globalvars once; then each resource's.
  const shape = batchRequestProblems(body);
  if (!isPlainObject(body)) throw new RenderError('Invalid request', shape);
  const { resources, values, globalvars } = body;
  // A limit, not the shape: only a well-formed list is counted, and its count is said where a shape problem would be.
  const problems: Problem[] =
    Array.isArray(resources) && resources.length > options.maxResources
      ? [{ pointer: '/resources', detail: `has ${resources.length} resources; at most ${options.maxResources}` }, ...shape]
      : shape;
  if (problems.length > 0) throw new RenderError('Invalid request', problems);

  const runs: Run[] = [];
  (resources as unknown[]).forEach((resource, index) => {
    const pointer = `/resources/${index}`;
    const resourceShape = resourceProblems(resource, pointer);
    if (resourceShape.length > 0) {
      for (const problem of resourceShape) problems.push(problem);
      return;
    }
    const found = find(resource as BatchResource, pointer);
    if ('pointer' in found) problems.push(found);
    else
      runs.push({ index, pointer, resource: resource as BatchResource, found, globalvars: merged(globalvars, resource as BatchResource) });
  });
  checkFanOut(runs, values as JsonObject, options);

  const manifests: JsonObject[] = [];
  const bundles: Bundle[] = [];
  const unknown = new Set<string>();
  const used = new Set<string>();
  const budget = new WorkBudget(options.maxCheckMs ?? Infinity);
  for (const run of runs) {
    if (budget.exhausted) throw overBudget(run, budget);
    const { resource, found } = run;
    const request = { facets: resource.facets, values, globalvars: run.globalvars };
    const result = checkRequest(found, request, facetsProblems(resource.facets), options);
    for (const problem of result.problems) problems.push(placed(run, problem));
    if (result.manifest === undefined || result.problems.length > 0) continue;
    used.add(result.valuesId);
    manifests.push(result.manifest);
    if (!bundles.includes(found.bundle)) bundles.push(found.bundle);
    for (const member of result.unknownMembers) unknown.add(member);
  }
  // Resources reading one values entry find its problems each.
  if (problems.length > 0) throw renderError('Invalid request', distinctProblems(problems));
  return { manifests, bundles, unknownMembers: [...unknown], unusedValues: Object.keys(values as object).filter((id) => !used.has(id)) };
}

/** The first resource not checked within the budget: the caller learns where to split. */
function overBudget(run: Run, budget: WorkBudget): RenderError {
  const detail =
    `not checked: the resources before it took ${Math.round(budget.elapsedMs)} ms, and the checks of one request may ` +
    `take at most ${budget.maxMs} ms; split the batch here`;
  return new RenderError('Request over limits', [{ pointer: run.pointer, detail }]);
}

/** The globalvars a resource reads through: the body's (shape-checked, so an object or absent) with the resource's own over them. */
function merged(shared: unknown, resource: BatchResource): unknown {
  return resource.globalvars === undefined ? shared : { ...(shared as JsonObject | undefined), ...resource.globalvars };
}

/**
 * A problem of the resource's check, where the body has it: under the resource when it owns it; at
 * the shared member otherwise, and a variable with no entry in the body's globalvars names the
 * resource that reads it (of fifty resources, the caller must learn which one lacks it).
 */
function placed(run: Run, problem: Problem): Problem {
  if (ownsProblem(run, problem.pointer)) return { ...problem, pointer: run.pointer + problem.pointer };
  return problem.pointer === '/globalvars' ? { ...problem, detail: `${problem.detail} (read by ${run.pointer})` } : problem;
}

/**
 * Whether a problem of the resource's check is at a member of the resource: its facets, or its own
 * globalvars (the variable's entry when the resource names it; the variable's missing entry when
 * the resource has globalvars, where it would go). values, and the body's globalvars, are shared.
 */
function ownsProblem({ resource, found }: Run, pointer: string): boolean {
  if (pointer.startsWith('/facets')) return true;
  if (resource.globalvars === undefined) return false;
  const variable = found.plan.variable;
  return pointer === '/globalvars' || (pointer === toPointer(['globalvars', variable]) && Object.hasOwn(resource.globalvars, variable));
}

/**
 * What the resources read, counted before anything is checked: each resource validates, renders and
 * answers the whole values entry it reads, so fifty resources reading one big entry cost fifty times
 * one, and their answer is fifty times as large. Too many JSON values in all is a request over
 * limits; too many bytes, an answer too large (split the batch).
 */
function checkFanOut(runs: Run[], values: JsonObject, options: BatchLimits): void {
  const maxNodes = options.maxNodes ?? Infinity;
  const maxBytes = options.maxAnswerBytes ?? Infinity;
  if (maxNodes === Infinity && maxBytes === Infinity) return;
  const sizes = new Map<string, { nodes: number; bytes: number; readers: number }>();
  let nodes = 0;
  let bytes = 0;
  for (const run of runs) {
    const resolved = resolveVariable(run.found.plan.variable, values, run.globalvars);
    if ('pointer' in resolved) continue; // the check of the resource reports it
    let size = sizes.get(resolved.id);
    if (size === undefined) {
      const count = countJsonValues(resolved.value, toPointer(['values', resolved.id]).length, maxNodes);
      sizes.set(resolved.id, (size = { nodes: count, bytes: Buffer.byteLength(JSON.stringify(resolved.value)), readers: 0 }));
    }
    size.readers++;
    if (bytes + size.bytes > maxBytes) throw new AnswerTooLarge(maxBytes, run.index, bytes);
    nodes += size.nodes;
    bytes += size.bytes;
  }
  if (nodes > maxNodes) {
    const [id, most] = [...sizes].reduce((a, b) => (b[1].nodes * b[1].readers > a[1].nodes * a[1].readers ? b : a));
    throw new RenderError('Request over limits', [
      {
        pointer: '/resources',
        detail:
          `the resources read more than ${maxNodes} JSON values in all (each ` +
          `resource counting the values entry it reads, and each value one ` +
          `more per ${POINTER_CHARACTERS_PER_VALUE} characters of its pointer); ` +
          `at most ${maxNodes}: values entry "${cut(id, 64)}" (${most.nodes}${most.nodes > maxNodes ? ' or more' : ''}) ` +
          `is read by ${most.readers} of them`,
      },
    ]);
  }
}
