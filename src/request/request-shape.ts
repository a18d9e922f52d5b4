/**
 * The shape of a request body, decided here once: the JSON Schema of the exec body and of the batch
 * body, what a problem with each member says, and the check that walks a body along the schema. The
 * server's check, the OpenAPI document and the editor schemas take their request bodies from here.
 * Pure data and functions, no node: imports, so that the browser console can import it too.
 */
import { escapePointerSegment, isPlainObject } from '../util/json.js';
import type { Problem } from './problems.js';

/** The API version a batch resource names when it names none: the version callers coded against is never taken away. */
export const DEFAULT_API_VERSION = 'v1';

/** How to write an exec request, for messages about one that is not. */
export const EXEC_REQUEST_FORM = 'write { "facets": [...], "values": {...}, "globalvars": {...} }';

/** The part of JSON Schema a request's shape is written in, all of which `walk` checks. */
export type ShapeSchema = {
  type: 'object' | 'array' | 'string';
  description?: string;
  required?: string[];
  properties?: { [name: string]: ShapeSchema };
  /** Entries besides `properties`; `false`: none. */
  additionalProperties?: ShapeSchema | false;
  items?: ShapeSchema;
  minItems?: number;
  minLength?: number;
};

export const VALUES_DESCRIPTION =
  'Input objects by id; globalvars says which one each template variable reads (the only one, when there is one).';

const facets = { type: 'array', items: { type: 'string' }, description: 'The facets to add.' } satisfies ShapeSchema;
const values = { type: 'object', additionalProperties: { type: 'object' }, description: VALUES_DESCRIPTION } satisfies ShapeSchema;
const globalvars = {
  type: 'object',
  additionalProperties: { type: 'string' },
  description: 'Which values entry each template variable reads.',
} satisfies ShapeSchema;
/** A batch resource's own: many resources of one collection then read different entries of one values. */
const resourceGlobalvars = {
  ...globalvars,
  description:
    "Which values entry each template variable reads for this resource only: merged over the body's globalvars, its entries winning.",
} satisfies ShapeSchema;

/** The body of POST …/collections/<collection>/exec. Other members are ignored (example files carry `$description`). */
export const execRequestSchema = { type: 'object', required: ['values'], properties: { facets, values, globalvars } } satisfies ShapeSchema;

/** One resource of a batch: a collection to render, its facets, and optionally its own globalvars. */
export const batchResourceSchema = {
  type: 'object',
  required: ['repository', 'collection'],
  properties: {
    repository: { type: 'string', minLength: 1, description: 'A template repository of the vendor.' },
    collection: { type: 'string', minLength: 1, description: 'The collection to render.' },
    facets,
    apiVersion: { type: 'string', description: `The API version; default ${DEFAULT_API_VERSION}.` },
    release: { type: 'string', description: 'Default: the latest release of the API version.' },
    globalvars: resourceGlobalvars,
  },
  additionalProperties: false,
} satisfies ShapeSchema;

/** One resource of a batch as batchResourceSchema takes it. */
export interface BatchResource {
  repository: string;
  collection: string;
  facets?: string[];
  /** Default DEFAULT_API_VERSION. */
  apiVersion?: string;
  /** Default: the latest release of the API version. */
  release?: string;
  /** Merged over the body's globalvars for this resource only. */
  globalvars?: Record<string, string>;
}

/** The body of POST /apis/repos/<vendor>/exec: several resources sharing one values and (but for their own entries) one globalvars. */
export const batchRequestSchema = {
  type: 'object',
  required: ['resources', 'values'],
  properties: {
    resources: {
      type: 'array',
      minItems: 1,
      items: batchResourceSchema,
      description:
        "The resources to render, in order; each reads the values entry its collection's variable names in its own globalvars, else in the body's.",
    },
    values,
    globalvars,
  },
} satisfies ShapeSchema;

/**
 * What a problem with a member says, by the member's path in the body ('*': any entry or item):
 * `wrong` when it is of the wrong type or too short, `missing` when it is required and absent,
 * `unknown` for a member its object does not have.
 */
interface Messages {
  wrong: string;
  missing?: string;
  unknown?: (members: string[]) => string;
}

const SHARED_MESSAGES: Record<string, Messages> = {
  '/facets': { wrong: 'must be an array of facet names' },
  '/facets/*': { wrong: 'must be a string' },
  '/values': {
    wrong: 'must be an object mapping an input id to its input object',
    missing: 'is required: an object mapping an input id to its input object',
  },
  '/values/*': { wrong: 'must be an object' },
  '/globalvars': { wrong: 'must be an object mapping a template variable to a key of values' },
  '/globalvars/*': { wrong: 'must be a string naming a key of values' },
};

const EXEC_MESSAGES: Record<string, Messages> = {
  '': { wrong: 'the request body must be a JSON object with facets, values and globalvars' },
  ...SHARED_MESSAGES,
};

const BATCH_MESSAGES: Record<string, Messages> = {
  '': { wrong: 'the request body must be a JSON object with resources, values and globalvars' },
  '/resources': { wrong: 'is required: a non-empty array of { repository, collection, facets }' },
  '/resources/*': {
    wrong: 'must be an object with repository, collection and facets',
    unknown: (members) => `is not a member of a resource; use ${members.join(', ')}`,
  },
  '/resources/*/repository': { wrong: 'is required: a string' },
  '/resources/*/collection': { wrong: 'is required: a string' },
  '/resources/*/apiVersion': { wrong: 'must be a string' },
  '/resources/*/release': { wrong: 'must be a string' },
  '/resources/*/globalvars': {
    wrong: "must be an object mapping a template variable to a key of values (merged over the body's globalvars)",
  },
  '/resources/*/globalvars/*': { wrong: 'must be a string naming a key of values' },
  ...SHARED_MESSAGES,
};

function fits(schema: ShapeSchema, value: unknown): boolean {
  if (schema.type === 'object') return isPlainObject(value);
  if (schema.type === 'array') return Array.isArray(value) && value.length >= (schema.minItems ?? 0);
  return typeof value === 'string' && value.length >= (schema.minLength ?? 0);
}

/** One check's walk: the texts of its body, the member paths it leaves to a later check, what it found. */
interface Walk {
  messages: Record<string, Messages>;
  skip: string[];
  problems: Problem[];
  /** The pointer of the value the walk began at. */
  base: string;
}

/** The pointer of the member at `segments` below the walk's start: made only for a problem, never per member. */
function pointerOf(walk: Walk, segments: readonly string[]): string {
  let pointer = walk.base;
  for (const segment of segments) pointer += `/${escapePointerSegment(segment)}`;
  return pointer;
}

/** Walks `value` along `schema`, the member at `path`, at `segments` below the walk's start. */
function walkShape(schema: ShapeSchema, value: unknown, path: string, segments: string[], walk: Walk): void {
  const { messages, skip, problems } = walk;
  if (!fits(schema, value)) {
    problems.push({ pointer: pointerOf(walk, segments), detail: messages[path]!.wrong });
    return;
  }
  const properties = schema.properties ?? {};
  if (isPlainObject(value)) {
    for (const name of Object.keys(properties)) {
      const at = `${path}/${name}`;
      if (skip.includes(at)) continue;
      const child = value[name];
      segments.push(name);
      if (child !== undefined) walkShape(properties[name]!, child, at, segments, walk);
      else if (schema.required?.includes(name))
        problems.push({ pointer: pointerOf(walk, segments), detail: messages[at]!.missing ?? messages[at]!.wrong });
      segments.pop();
    }
    const entries = schema.additionalProperties;
    if (entries === undefined || skip.includes(`${path}/*`)) return;
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(properties, key)) continue;
      segments.push(key);
      if (entries === false)
        problems.push({ pointer: pointerOf(walk, segments), detail: messages[path]!.unknown!(Object.keys(properties)) });
      else walkShape(entries, value[key], `${path}/*`, segments, walk);
      segments.pop();
    }
  } else if (Array.isArray(value) && schema.items !== undefined && !skip.includes(`${path}/*`)) {
    for (let index = 0; index < value.length; index++) {
      segments.push(String(index));
      walkShape(schema.items, value[index], `${path}/*`, segments, walk);
      segments.pop();
    }
  }
}

/** The problems of `value` as the member at `path` of a body, pointed at by `pointer`. */
function check(schema: ShapeSchema, messages: Walk['messages'], value: unknown, path = '', pointer = path, skip: string[] = []): Problem[] {
  const walk: Walk = { messages, skip, problems: [], base: pointer };
  walkShape(schema, value, path, [], walk);
  return walk.problems;
}

/** What is wrong with the shape of an exec body: facets strings, values objects, globalvars strings. */
export const execRequestProblems = (body: unknown): Problem[] => check(execRequestSchema, EXEC_MESSAGES, body);

/** What is wrong with the facets of an exec body, pointed at as there: a batch resource's are checked so. */
export const facetsProblems = (value: unknown): Problem[] =>
  check(execRequestSchema, EXEC_MESSAGES, { facets: value }, '', '', ['/values', '/globalvars']);

/** What is wrong with a batch body's own members: resources as a whole (each is checked by `resourceProblems`), values, globalvars. */
export const batchRequestProblems = (body: unknown): Problem[] => check(batchRequestSchema, BATCH_MESSAGES, body, '', '', ['/resources/*']);

/** What is wrong with one resource of a batch at `pointer`, but its facets: they are checked when the resource is (`facetsProblems`). */
export const resourceProblems = (resource: unknown, pointer: string): Problem[] =>
  check(batchResourceSchema, BATCH_MESSAGES, resource, '/resources/*', pointer, ['/resources/*/facets']);

/** The values of an exec or batch body, when the body and its values are objects; limits count them before the shape is checked. */
export function valuesOf(body: unknown): Record<string, unknown> | undefined {
  return isPlainObject(body) && isPlainObject(body.values) ? body.values : undefined;
}
