/**
 * The requests a release is judged by (CONTRACT §9): every example of the previous release, and
 * requests generated from each example's values, so that the authors' examples are not the only
 * evidence: every facet alone, all facets, each optional input absent, and each input of either
 * release the example leaves out added with a value its schema accepts. Only requests the previous
 * release accepts, with no unknown field, count: no caller can have sent the others, and a careful
 * one sends no field the release warns of.
 */
import type { BundleCollection } from '../bundle/bundle.js';
import { inputPaths } from './schema-comparison.js';
import { MASTER_FACET } from '../collection/facet.js';
import { lookup, resolveVariable } from '../request/resolve.js';
import { sampleValue } from '../schema/sample-value.js';
import type { Schema } from '../kubernetes/kind-schema.js';
import { isPlainObject, type JsonObject } from '../util/json.js';

export interface UpgradeRequest {
  /** How a reviewer finds it: `example seed`, or how it was made from one. */
  name: string;
  /** The example it is, or was made from. */
  example: string;
  generated: boolean;
  body: JsonObject;
}

export function upgradeRequests(
  collection: BundleCollection,
  successor: BundleCollection,
  accepted: (body: JsonObject) => boolean,
): UpgradeRequest[] {
  const requests: UpgradeRequest[] = [];
  const seen = new Set<string>();
  // Requests that select the same sections with the same values are one request, however written.
  const add = (request: UpgradeRequest) => {
    const { facets, values, globalvars } = request.body;
    const resolved = resolveVariable(collection.variable, values, globalvars);
    const selected = Array.isArray(facets) ? [...new Set(facets.filter((facet) => facet !== MASTER_FACET))].sort() : [];
    const key = JSON.stringify([selected, 'pointer' in resolved ? request.body : resolved.value]);
    if (seen.has(key) || !accepted(request.body)) return;
    seen.add(key);
    requests.push(request);
  };
  for (const example of collection.examples)
    add({ name: `example ${example.name}`, example: example.name, generated: false, body: example.request });

  // The new release's inputs too: a value an old caller could send under a map (an annotation, say) that the new release now reads.
  const paths = new Map<string, { schema: Schema; definitions: Record<string, Schema> }>();
  for (const { schema: root } of [successor, collection]) {
    const definitions = (isPlainObject(root.definitions) ? root.definitions : {}) as Record<string, Schema>;
    for (const [path, schema] of inputPaths(root)) if (!path.split('.').includes('*')) paths.set(path, { schema, definitions });
  }
  const facets = collection.facets.filter((facet) => facet !== MASTER_FACET);
  for (const example of collection.examples) {
    const resolved = resolveVariable(collection.variable, example.request.values, example.request.globalvars);
    if ('pointer' in resolved) continue;
    const { id, value } = resolved;
    const request = (facetList: string[], input: unknown): JsonObject =>
      ({ facets: facetList, values: { [id]: input }, globalvars: { [collection.variable]: id } }) as JsonObject;
    const from = `example ${example.name}'s values`;
    for (const facet of facets)
      add({ name: `${from}, facets [${facet}]`, example: example.name, generated: true, body: request([facet], value) });
    add({ name: `${from}, every facet`, example: example.name, generated: true, body: request(facets, value) });
    for (const [path, { schema, definitions }] of paths) {
      const segments = path.split('.');
      if (lookup(value, segments) !== undefined) {
        add({
          name: `${from} without ${path}, every facet`,
          example: example.name,
          generated: true,
          body: request(facets, without(value, segments)),
        });
        continue;
      }
      const sample = sampleValue(schema, definitions);
      const input = sample === undefined ? undefined : withMember(value, segments, sample);
      if (input !== undefined)
        add({
          name: `${from} with ${path} = ${JSON.stringify(sample)}, every facet`,
          example: example.name,
          generated: true,
          body: request(facets, input),
        });
    }
  }
  return requests;
}

/** A copy of `value` without the member at `path`. */
function without(value: unknown, path: string[]): unknown {
  if (!isPlainObject(value)) return value;
  const [name, ...rest] = path as [string, ...string[]];
  const { [name]: member, ...others } = value;
  return rest.length === 0 ? others : { ...others, [name]: without(member, rest) };
}

/** A copy of `value` with `member` at `path`, creating objects on the way; undefined where a value that is not an object stands in the way. */
function withMember(value: unknown, path: string[], member: unknown): unknown {
  if (path.length === 0) return member;
  if (value !== undefined && !isPlainObject(value)) return undefined;
  const [name, ...rest] = path as [string, ...string[]];
  const below = withMember(value?.[name], rest, member);
  return below === undefined ? undefined : { ...value, [name]: below };
}
