import { Ajv, type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  batchRequestProblems,
  batchRequestSchema,
  execRequestProblems,
  execRequestSchema,
  facetsProblems,
  resourceProblems,
} from '../src/request/request-shape.js';
import { examplesIn } from './helpers/repos.js';

const ajv = new Ajv({ allErrors: true, strict: false });

/** Where ajv finds problems with `body` against `schema`: the JSON Schema itself, not our walk of it. */
function ajvPointers(schema: object, body: unknown): string[] {
  const validate = ajv.compile(schema);
  validate(body);
  const at = (error: ErrorObject) =>
    error.keyword === 'required'
      ? `${error.instancePath}/${String(error.params.missingProperty)}`
      : error.keyword === 'additionalProperties'
        ? `${error.instancePath}/${String(error.params.additionalProperty)}`
        : error.instancePath;
  return [...new Set((validate.errors ?? []).map(at))].sort();
}

const pointers = (problems: Array<{ pointer: string }>) => [...new Set(problems.map((problem) => problem.pointer))].sort();

const execBodies: unknown[] = [
  ...examplesIn().map((example) => example.request),
  [],
  'x',
  null,
  {},
  { facets: 'a', values: [] },
  { facets: [1, 'master', {}], values: { a: 1, b: {} }, globalvars: { X: 2, Y: 'b' } },
  { values: { web: {} }, globalvars: [] },
  { values: { 'a~/b': 3, c: null } },
  { values: {}, $description: "other members are the server's to ignore" },
];

const resources: unknown[] = [
  1,
  { repository: '', collection: 2, facets: 'x', apiVersion: 3, release: 4, bogus: 1 },
  { repository: 'r', collection: 'c', facets: [1, 'a'] },
  { repository: 'r', collection: 'c', apiVersion: 'v2', release: '1.0.0' },
  { collection: 'c', facets: ['a'] },
  { repository: 'r', collection: 'c', globalvars: 'x' },
  { repository: 'r', collection: 'c', globalvars: { X: 'web', 'a~/b': 1, Y: null } },
  { repository: 'r', collection: 'c', globalvars: {} },
];
const batchBodies: unknown[] = [
  [],
  {},
  { resources: [], values: {} },
  { resources: {}, values: [], globalvars: { a: 1 } },
  { resources, values: { web: {} } },
  { resources: [resources[3]], values: { web: 5 }, globalvars: { X: 'web' } },
];

describe('the request shape', () => {
  it('finds in an exec body exactly where ajv, given the same JSON Schema, finds a problem', () => {
    for (const body of execBodies) {
      expect(pointers(execRequestProblems(body)), JSON.stringify(body)).toEqual(ajvPointers(execRequestSchema, body));
    }
  });

  it('finds in a batch body, its resources and their facets exactly where ajv, given the same JSON Schema, finds a problem', () => {
    for (const body of batchBodies) {
      const found = batchRequestProblems(body);
      const listed = (body as { resources?: unknown }).resources;
      if (Array.isArray(listed)) {
        listed.forEach((resource, index) => {
          const pointer = `/resources/${index}`;
          for (const problem of resourceProblems(resource, pointer)) found.push(problem);
          // A resource's facets are pointed at as an exec body's.
          const facets = (resource as { facets?: unknown } | null)?.facets;
          if (typeof resource !== 'object') return;
          for (const problem of facetsProblems(facets)) found.push({ ...problem, pointer: pointer + problem.pointer });
        });
      }
      expect(pointers(found), JSON.stringify(body)).toEqual(ajvPointers(batchRequestSchema, body));
    }
  });

  it('says each problem in words that name what is wanted', () => {
    expect(execRequestProblems({ facets: [1], values: { a: 1 }, globalvars: { X: 2 } })).toEqual([
      { pointer: '/facets/0', detail: 'must be a string' },
      { pointer: '/values/a', detail: 'must be an object' },
      { pointer: '/globalvars/X', detail: 'must be a string naming a key of values' },
    ]);
    expect(resourceProblems({ repository: 'r', collection: 'c', colection: 'c' }, '/resources/0')).toEqual([
      {
        pointer: '/resources/0/colection',
        detail: 'is not a member of a resource; use repository, collection, facets, apiVersion, release, globalvars',
      },
    ]);
    expect(resourceProblems({ repository: 'r', collection: 'c', globalvars: { X: 2 } }, '/resources/3')).toEqual([
      { pointer: '/resources/3/globalvars/X', detail: 'must be a string naming a key of values' },
    ]);
  });
});
