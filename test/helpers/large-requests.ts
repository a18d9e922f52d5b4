/**
 * Large requests, as fast-check arbitraries of small descriptions that are made into bodies only
 * when sent: many facets, huge error lists (wrong types, missing required members, failing unions),
 * batch fan-out of one big values entry, YAML that grows with indentation, long member names, big
 * valid answers. Sizes straddle the request limits, so some are refused and some go all the way.
 * Collections are found by the kind they render, never named.
 */
import fc from 'fast-check';
import type { RequestLimits } from '../../src/server/config.js';
import { collectionOfKind, facetsWriting, type ShippedCollection } from './repos.js';
import { BASE, execPath } from './server.js';

export interface LargeRequest {
  pattern: string;
  path: string;
  body: () => string;
}

const configMap = collectionOfKind('ConfigMap');
const endpoints = collectionOfKind('Endpoints');
const volume = collectionOfKind('PersistentVolume');
const crd = collectionOfKind('CustomResourceDefinition');
const service = collectionOfKind('Service');

const execOf = (found: ShippedCollection, format: string) =>
  `${execPath(found.repository, found.collection)}${format === 'json' ? '' : '?format=yaml'}`;
const resourceOf = (found: ShippedCollection, facets: string[]) => ({ repository: found.repository, collection: found.collection, facets });
const format = fc.constantFrom('json', 'yaml');
/** Around `limit`: mostly below it, sometimes just past it. */
const around = (limit: number) => fc.integer({ min: Math.floor(limit * 0.5), max: Math.ceil(limit * 1.05) });

/** An input object of `collection`'s seed with `planted` merged into it. */
function seedWith(
  found: ShippedCollection,
  planted: (input: Record<string, any>) => void,
): { values: Record<string, unknown>; facets?: string[]; globalvars?: Record<string, string> } {
  const request = structuredClone(found.seed);
  const id = request.globalvars?.[found.variable] ?? Object.keys(request.values)[0]!;
  planted(request.values[id]);
  return request;
}

/** Rows of `width` items made by `item`, `count` items in all. */
const rows = <T>(count: number, width: number, item: () => T): T[][] =>
  Array.from({ length: Math.ceil(count / width) }, (_, row) => Array.from({ length: Math.min(width, count - row * width) }, item));

export function largeRequests(limits: RequestLimits): fc.Arbitrary<LargeRequest> {
  const width = Math.min(100, limits.maxItems);
  const nodes = limits.maxValuesNodes;
  const subsets = facetsWriting(endpoints, 'subsets');
  const affinity = facetsWriting(volume, 'spec.nodeAffinity');
  const data = facetsWriting(configMap, 'data');
  return fc.oneof(
    // Unknown facets, up to and past what one list may hold, in one exec or across a whole batch.
    fc.tuple(around(limits.maxItems), fc.integer({ min: 1, max: limits.maxResources })).map(([count, resources]) => ({
      pattern: 'many facets',
      path: resources === 1 ? execOf(service, 'json') : `${BASE}/exec`,
      body: () => {
        const facets = Array.from({ length: count }, (_, index) => `addon:nope-${index}`);
        const { values, globalvars } = service.seed;
        return JSON.stringify(
          resources === 1
            ? { values, globalvars, facets }
            : { values, globalvars, resources: Array.from({ length: resources }, () => resourceOf(service, facets)) },
        );
      },
    })),
    // A wrong type at every value: addresses that are numbers, rows of them.
    around(nodes).map((count) => ({
      pattern: 'huge error list (types)',
      path: execOf(endpoints, 'json'),
      body: () =>
        JSON.stringify({
          ...seedWith(endpoints, (input) => (input.subsets = rows(count, width - 2, () => 1).map((addresses) => ({ addresses })))),
          facets: subsets,
        }),
    })),
    // Two required members missing from every {}.
    around(nodes).map((count) => ({
      pattern: 'huge error list (required)',
      path: execOf(volume, 'json'),
      body: () =>
        JSON.stringify({
          ...seedWith(
            volume,
            (input) =>
              (input.spec = {
                ...input.spec,
                nodeAffinity: {
                  required: { nodeSelectorTerms: rows(count, width - 2, () => ({})).map((matchExpressions) => ({ matchExpressions })) },
                },
              }),
          ),
          facets: affinity,
        }),
    })),
    // A union failing at every member: additionalProperties that is neither a schema nor a boolean.
    around(Math.floor(nodes / 2)).map((count) => ({
      pattern: 'huge error list (unions)',
      path: execOf(crd, 'json'),
      body: () =>
        JSON.stringify(
          seedWith(crd, (input) => {
            const properties = rows(count, width, () => ({ additionalProperties: 1 })).map((row) => ({
              type: 'object',
              properties: Object.fromEntries(row.map((item, index) => [`q${index}`, item])),
            }));
            input.spec.versions[0].schema.openAPIV3Schema = {
              type: 'object',
              properties: Object.fromEntries(properties.map((item, index) => [`p${index}`, item])),
            };
          }),
        ),
    })),
    // One big values entry read by many resources: the answer would be many times the body.
    fc
      .tuple(
        fc.integer({ min: 10_000, max: 60_000 }),
        fc.integer({ min: 1, max: 15 }),
        fc.integer({ min: 1, max: limits.maxResources }),
        format,
      )
      .map(([length, strings, resources, shape]) => ({
        pattern: 'batch fan-out',
        path: `${BASE}/exec${shape === 'json' ? '' : '?format=yaml'}`,
        body: () => {
          const entry = {
            metadata: { name: 'shared' },
            data: Object.fromEntries(Array.from({ length: strings }, (_, index) => [`k${index}`, String(index % 10).repeat(length)])),
          };
          return JSON.stringify({
            resources: Array.from({ length: resources }, () => resourceOf(configMap, data)),
            values: { shared: entry },
            globalvars: { [configMap.variable]: 'shared' },
          });
        },
      })),
    // Text of many lines deep down: YAML indents every line.
    fc.tuple(fc.integer({ min: 1_000, max: 60_000 }), fc.integer({ min: 1, max: 25 })).map(([lines, depth]) => ({
      pattern: 'YAML growth',
      path: execOf(crd, 'yaml'),
      body: () =>
        JSON.stringify(
          seedWith(crd, (input) => {
            let schema: Record<string, unknown> = { type: 'string', description: 'line\n'.repeat(lines) };
            for (let level = 0; level < depth; level++) schema = { type: 'object', properties: { p: schema } };
            input.spec.versions[0].schema.openAPIV3Schema = schema;
          }),
        ),
    })),
    // Problems under a long values id: every pointer repeats it.
    fc
      .tuple(fc.integer({ min: 1_000, max: limits.maxStringLength }), fc.integer({ min: 10, max: limits.maxItems }))
      .map(([length, members]) => ({
        pattern: 'long member names',
        path: execOf(configMap, 'json'),
        body: () =>
          JSON.stringify({
            facets: data,
            values: {
              ['i'.repeat(length)]: {
                metadata: { name: 'c' },
                data: Object.fromEntries(Array.from({ length: members }, (_, index) => [`k${index}`, index])),
              },
            },
          }),
      })),
    // The largest valid answer one exec gives.
    fc.tuple(fc.integer({ min: 1, max: 15 }), format).map(([strings, shape]) => ({
      pattern: 'big valid answer',
      path: execOf(configMap, shape),
      body: () =>
        JSON.stringify({
          facets: data,
          values: {
            big: {
              metadata: { name: 'big' },
              data: Object.fromEntries(Array.from({ length: strings }, (_, index) => [`k${index}`, 'x'.repeat(64_000)])),
            },
          },
        }),
    })),
  );
}
