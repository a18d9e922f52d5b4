/**
 * Several resources in one call: each resource names a collection (and facets, and optionally an
 * API version and release); all share one `values` and one `globalvars`, so one values object can
 * describe a whole application. Nothing is rendered unless everything renders: the error lists
 * every problem of every resource, with pointers into /resources/N/… and /values/….
 */
import type { Bundle } from '../bundle/bundle.js';
import type { LoadedCollection } from '../bundle/load.js';
import { RenderError, type Problem } from '../render/render-error.js';
import { isPlainObject, type JsonObject } from '../util/json.js';
import { comparePointers, execute, requestShapeProblems } from './execute.js';

export const DEFAULT_API_VERSION = 'v1';

export interface BatchResource {
  repository: string;
  collection: string;
  facets?: string[];
  /** Default v1: the version callers coded against is never taken away. */
  apiVersion?: string;
  /** Default: the latest release of the API version. */
  release?: string;
}

/** Finds a resource's collection, or says what is wrong with the names, as a problem under `pointer`. */
export type FindCollection = (resource: BatchResource, pointer: string) => LoadedCollection | Problem;

export interface BatchResult {
  manifests: JsonObject[];
  /** The bundles that rendered, in request order, without repeats. */
  bundles: Bundle[];
  unknownMembers: string[];
  /** values entries no resource read. */
  unusedValues: string[];
}

const RESOURCE_MEMBERS = new Set(['repository', 'collection', 'facets', 'apiVersion', 'release']);

function resourceShapeProblems(resource: unknown, pointer: string): Problem[] {
  if (!isPlainObject(resource)) return [{ pointer, detail: 'must be an object with repository, collection and facets' }];
  const problems: Problem[] = [];
  for (const name of ['repository', 'collection'] as const) {
    if (typeof resource[name] !== 'string' || resource[name] === '') problems.push({ pointer: `${pointer}/${name}`, detail: 'is required: a string' });
  }
  for (const name of ['apiVersion', 'release'] as const) {
    if (resource[name] !== undefined && typeof resource[name] !== 'string') problems.push({ pointer: `${pointer}/${name}`, detail: 'must be a string' });
  }
  for (const name of Object.keys(resource)) if (!RESOURCE_MEMBERS.has(name)) problems.push({ pointer: `${pointer}/${name}`, detail: `is not a member of a resource; use ${[...RESOURCE_MEMBERS].join(', ')}` });
  return problems;
}

export function executeBatch(find: FindCollection, body: unknown, options: { strict?: boolean; maxResources: number }): BatchResult {
  if (!isPlainObject(body)) throw new RenderError('Invalid request', [{ pointer: '', detail: 'the request body must be a JSON object with resources, values and globalvars' }]);
  const problems: Problem[] = [];
  const { resources, values, globalvars } = body;
  if (!Array.isArray(resources) || resources.length === 0) {
    problems.push({ pointer: '/resources', detail: 'is required: a non-empty array of { repository, collection, facets }' });
  } else if (resources.length > options.maxResources) {
    problems.push({ pointer: '/resources', detail: `has ${resources.length} resources; at most ${options.maxResources}` });
  }
  // The shared members are checked once, not once per resource.
  for (const problem of requestShapeProblems({ values, globalvars })) problems.push(problem);
  if (problems.length > 0) throw new RenderError('Invalid request', problems);

  const manifests: JsonObject[] = [];
  const bundles: Bundle[] = [];
  const unknown = new Set<string>();
  const used = new Set<string>();
  (resources as unknown[]).forEach((resource, index) => {
    const pointer = `/resources/${index}`;
    const shape = resourceShapeProblems(resource, pointer);
    if (shape.length > 0) {
      for (const problem of shape) problems.push(problem);
      return;
    }
    const named = resource as BatchResource;
    const found = find(named, pointer);
    if ('pointer' in found) {
      problems.push(found);
      return;
    }
    try {
      const result = execute(found, { facets: named.facets, values, globalvars }, options);
      used.add(result.valuesId);
      manifests.push(result.manifest);
      if (!bundles.includes(found.bundle)) bundles.push(found.bundle);
      for (const member of result.unknownMembers) unknown.add(member);
    } catch (error) {
      if (!(error instanceof RenderError)) throw error;
      // Facets belong to the resource; values and globalvars are shared.
      for (const problem of error.problems) problems.push(problem.pointer.startsWith('/facets') ? { ...problem, pointer: pointer + problem.pointer } : problem);
    }
  });
  if (problems.length > 0) {
    const seen = new Set<string>();
    const distinct = problems.filter((problem) => {
      const key = `${problem.pointer}\u0000${problem.detail}`;
      return !seen.has(key) && seen.add(key);
    });
    throw new RenderError('Invalid request', distinct.sort((a, b) => comparePointers(a.pointer, b.pointer)));
  }
  return { manifests, bundles, unknownMembers: [...unknown], unusedValues: Object.keys(values as object).filter((id) => !used.has(id)) };
}
