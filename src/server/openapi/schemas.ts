/**
 * The schemas of the OpenAPI document that do not come from a collection: problem details, a
 * rendered manifest, and the answers of discovery; and `hoist`, which moves a collection's input
 * schema into the document's components in a form OpenAPI tools and generated clients read alike.
 */
import { LISTED_PROBLEMS } from '../../request/problems.js';
import type { Schema } from '../../kubernetes/kind-schema.js';
import { isPlainObject } from '../../util/json.js';
import { PROBLEM_TYPES } from '../problem.js';

type Json = Record<string, unknown>;

const string = { type: 'string' };
const strings = { type: 'array', items: string };
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
/** An object whose members are all required; members added later are allowed (additionalProperties). */
const record = (properties: Json, description?: string): Json => ({
  type: 'object',
  ...(description === undefined ? {} : { description }),
  required: Object.keys(properties),
  properties,
  additionalProperties: true,
});

export const SHARED_SCHEMAS: Record<string, Json> = {
  Problem: {
    type: 'object',
    description: 'RFC 9457 problem details.',
    required: ['type', 'title', 'status', 'detail'],
    properties: {
      type: {
        type: 'string',
        description: 'A relative URI: /problems/<type>, each described at GET /problems/<type>.',
        examples: Object.keys(PROBLEM_TYPES).map((type) => `/problems/${type}`),
      },
      title: string,
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: string,
      instance: { type: 'string', description: 'urn:request:<request id>' },
      errors: {
        type: 'array',
        maxItems: LISTED_PROBLEMS,
        items: record({ pointer: { type: 'string', description: 'JSON Pointer into the request body.' }, detail: string }),
      },
      more: { type: 'integer', minimum: 1, description: `How many problems errors leaves out: it lists at most ${LISTED_PROBLEMS}.` },
      limit: { type: 'integer', description: 'With answer-too-large: the most bytes one answer may hold.' },
      known: { ...strings, description: 'With not-found: what exists; with an unknown query parameter: the parameters the route takes.' },
      parameter: { type: 'string', description: 'With an unknown query parameter: its name.' },
      allowed: { ...strings, description: 'With a format that is not supported: those that are.' },
    },
    additionalProperties: true,
  },
  ObjectMeta: {
    type: 'object',
    description: 'Kubernetes ObjectMeta of a rendered object.',
    properties: {
      name: string,
      namespace: string,
      labels: { type: 'object', additionalProperties: string },
      annotations: { type: 'object', additionalProperties: string },
    },
    additionalProperties: true,
  },
  Manifest: {
    type: 'object',
    description: 'One rendered Kubernetes object.',
    required: ['apiVersion', 'kind', 'metadata'],
    properties: { apiVersion: string, kind: string, metadata: ref('ObjectMeta') },
    additionalProperties: true,
  },
  ExecRequest: {
    type: 'object',
    description: 'An exec request body; the exec operation of the collection has its exact schema.',
    required: ['values'],
    properties: {
      facets: strings,
      values: { type: 'object', additionalProperties: { type: 'object', additionalProperties: true } },
      globalvars: { type: 'object', additionalProperties: string },
    },
  },
  VendorList: record({ vendors: { type: 'array', items: record({ name: string, href: string }) } }, 'The vendors served.'),
  RepositoryList: record(
    {
      vendor: string,
      repositories: {
        type: 'array',
        items: record({
          name: string,
          description: string,
          apiVersions: { type: 'array', items: record({ apiVersion: string, latest: string, releases: strings, href: string }) },
        }),
      },
    },
    'The repositories of a vendor, with their API versions and releases.',
  ),
  CollectionList: record(
    {
      repository: string,
      vendor: string,
      apiVersion: string,
      release: string,
      description: string,
      digest: string,
      collections: {
        type: 'array',
        items: record({
          name: string,
          kind: string,
          apiVersion: string,
          variable: string,
          description: string,
          facets: strings,
          href: string,
        }),
      },
    },
    'The collections of one release of a repository.',
  ),
  Collection: record(
    {
      name: string,
      repository: string,
      release: string,
      variable: string,
      kind: string,
      apiVersion: string,
      description: string,
      facets: strings,
      sections: {
        type: 'array',
        items: record({
          name: string,
          facets: strings,
          description: string,
          inputs: { ...strings, description: 'The input paths the section reads.' },
        }),
      },
      examples: { type: 'array', items: record({ name: string, description: string, request: ref('ExecRequest') }) },
      links: record({ exec: string, schema: string, types: string }),
    },
    'One collection: its variable, kind, sections and examples.',
  ),
};

/** A schema whose `type` lists several types, as one `anyOf` per type: strict JSON Schema tools refuse union types. */
function withoutUnionType(node: Json): Json {
  if (!Array.isArray(node.type) || node.type.length < 2) return node;
  const { type, anyOf: given, ...rest } = node;
  const anyOf = (type as string[]).map((one) => ({ type: one }));
  if (given === undefined) return { ...rest, anyOf };
  return { ...rest, allOf: [...((rest.allOf as Json[] | undefined) ?? []), { anyOf }, { anyOf: given }] };
}

/**
 * A property named like a keyword (JSONSchemaProps has "$ref") reads as a reference to OpenAPI
 * tools. It is left out of `properties`; the object stays open to it (additionalProperties), and
 * its description names it. Where the object is closed, patternProperties keeps it allowed.
 */
function withoutDollarProperties(node: Json): Json {
  if (!isPlainObject(node.properties)) return node;
  const dollar = Object.keys(node.properties).filter((name) => name.startsWith('$'));
  if (dollar.length === 0) return node;
  const properties = { ...(node.properties as Json) };
  for (const name of dollar) delete properties[name];
  const named = `It may also hold ${dollar.map((name) => `\`${name}\``).join(', ')}.`;
  const description = typeof node.description === 'string' ? `${node.description} ${named}` : named;
  if (node.additionalProperties !== false)
    return { ...node, description, properties, additionalProperties: node.additionalProperties ?? true };
  const patterns = Object.fromEntries(
    dollar.map((name) => [`^${name.replace(/[$^.*+?()[\]{}|\\]/g, '\\$&')}$`, (node.properties as Json)[name]]),
  );
  return { ...node, description, properties, patternProperties: { ...((node.patternProperties as Json) ?? {}), ...patterns } };
}

/**
 * A default said in the description: generated clients (openapi-typescript) read a `default` in a
 * component as "always present", which holds for answers but would make a caller send every
 * member that has one.
 */
function withDefaultInDescription(node: Json): Json {
  if (!('default' in node)) return node;
  const { default: value, ...rest } = node;
  const said = `Default: \`${JSON.stringify(value)}\`.`;
  return { ...rest, description: typeof rest.description === 'string' ? `${rest.description} ${said}` : said };
}

/** Keywords whose value is a schema, a map of schemas, or a list of schemas; any other value is data (enum, default, x-…). */
const SUBSCHEMA = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
const SUBSCHEMA_MAP = new Set(['properties', 'patternProperties', 'dependentSchemas']);
const SUBSCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

/** Moves a schema's `definitions` into components under a prefix, rewriting its references. */
export function hoist(schema: Schema, prefix: string, components: Json): Json {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!isPlainObject(node)) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$schema' || key === 'definitions') continue;
      if (key === '$ref' && typeof value === 'string') out[key] = value.replace('#/definitions/', `#/components/schemas/${prefix}`);
      else if (SUBSCHEMA.has(key) || SUBSCHEMA_LIST.has(key)) out[key] = rewrite(value);
      else if (SUBSCHEMA_MAP.has(key) && isPlainObject(value))
        out[key] = Object.fromEntries(Object.entries(value).map(([name, member]) => [name, rewrite(member)]));
      else out[key] = value;
    }
    return withDefaultInDescription(withoutUnionType(withoutDollarProperties(out)));
  };
  for (const [name, definition] of Object.entries((schema.definitions as Record<string, Schema>) ?? {}))
    components[`${prefix}${name}`] = rewrite(definition);
  return rewrite(schema) as Json;
}
