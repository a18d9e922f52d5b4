/**
 * The render operations of the OpenAPI document: one exec operation per collection, with its
 * request body (the exec body's shape of src/request/request-shape.ts, narrowed to the collection),
 * examples and answers; and one batch operation per vendor.
 */
import type { BundleCollection, RepositoryIdentity } from '../../bundle/bundle.js';
import type { BundleRegistry } from '../../bundle/registry.js';
import { FORMATS, MEDIA_TYPES } from '../../manifest/format.js';
import { batchRequestSchema, DEFAULT_API_VERSION, execRequestSchema } from '../../request/request-shape.js';
import { RENDER_ANSWERS, okHeaders } from './answers.js';
import { hoist } from './schemas.js';

type Json = Record<string, unknown>;

const FORMAT_PARAMETER: Json = {
  name: 'format',
  in: 'query',
  description:
    'Manifest format; when given, it wins over the Accept header. Without it, Accept chooses (application/json or application/yaml), JSON by default.',
  schema: { type: 'string', enum: [...FORMATS] },
};
const STRICT_PARAMETER: Json = {
  name: 'strict',
  in: 'query',
  description:
    'Refuse input members the schema does not know (422), as `kubectl --validate=strict` does; without it ' +
    'they are rendered and each named in a `Warning` header. What is required does not change.',
  schema: { type: 'boolean', default: false },
};

/** The 200 of a render route: JSON or YAML, as `format` or Accept chose. */
function renderAnswer(description: string, json: Json): Json {
  return {
    description,
    headers: okHeaders(true, 'Vary', 'X-Facetform-Release', 'X-Facetform-Bundle-Digest', 'Warning'),
    content: {
      [MEDIA_TYPES.json]: json,
      [MEDIA_TYPES.yaml]: { schema: { type: 'string', description: 'YAML documents, as kubectl reads them.' } },
    },
  };
}

const requestBody = (schema: Json, examples: Json): Json => ({ required: true, content: { 'application/json': { schema, examples } } });

/** The exec body of one collection: the request's shape with the collection's facets, input schema and variable. */
function execBody(collection: BundleCollection, valuesRef: string): Json {
  const { facets, values, globalvars } = execRequestSchema.properties;
  return {
    ...execRequestSchema,
    properties: {
      facets: {
        ...facets,
        items: { ...facets.items, enum: collection.facets },
        description: 'Facets selecting sections; master sections are always included.',
      },
      values: { ...values, additionalProperties: { $ref: valuesRef } },
      globalvars: {
        ...globalvars,
        description: `Maps ${collection.variable} to the key of values to read; optional when values has one entry.`,
        properties: { [collection.variable]: { type: 'string' } },
      },
    },
  };
}

/** The batch body of one vendor: the request's shape with the vendor's repositories. */
function batchBody(repositories: string[]): Json {
  const { resources, values } = batchRequestSchema.properties;
  const { repository, apiVersion } = resources.items.properties;
  const properties = {
    ...resources.items.properties,
    repository: { ...repository, enum: repositories },
    apiVersion: { ...apiVersion, default: DEFAULT_API_VERSION },
  };
  const resource = { ...resources.items, properties };
  return {
    ...batchRequestSchema,
    properties: {
      ...batchRequestSchema.properties,
      resources: { ...resources, items: resource },
      values: {
        ...values,
        description: 'Input objects by id; each as the exec operation of every collection that reads it says.',
        // Said outright: generated clients (openapi-typescript) read an object with no members as an empty one.
        additionalProperties: { ...values.additionalProperties, additionalProperties: true },
      },
    },
  };
}

export function execOperation(repository: RepositoryIdentity, releases: string[], collection: BundleCollection, components: Json): Json {
  const prefix = `${repository.name}.${repository.apiVersion}.${collection.name}.`;
  components[`${prefix}Values`] = hoist(collection.schema, prefix, components);
  const sections = collection.sections
    .map((section) => `- \`${section.name}\` (${section.facets.join(', ')}): ${section.description}`)
    .join('\n');
  const manifest = {
    type: 'object',
    required: ['apiVersion', 'kind', 'metadata'],
    properties: {
      apiVersion: { const: collection.apiVersion },
      kind: { const: collection.kind },
      metadata: { $ref: '#/components/schemas/ObjectMeta' },
    },
    additionalProperties: true,
  };
  return {
    operationId: `exec-${repository.name}-${repository.apiVersion}-${collection.name}`,
    tags: [repository.name],
    summary: `Render a ${collection.kind} (${collection.apiVersion})`,
    description:
      `${collection.description}\n\nTemplate variable: \`${collection.variable}\`. ` +
      `Sections:\n${sections}\n\nMaster sections are always rendered; ` +
      `each requested facet adds every section that carries it.`,
    parameters: [
      FORMAT_PARAMETER,
      STRICT_PARAMETER,
      {
        name: 'release',
        in: 'query',
        description: 'Release of the repository to render with; the latest by default.',
        schema: { type: 'string', enum: releases },
      },
    ],
    requestBody: requestBody(
      execBody(collection, `#/components/schemas/${prefix}Values`),
      Object.fromEntries(
        collection.examples.map((example) => [example.name, { summary: example.description || example.name, value: example.request }]),
      ),
    ),
    responses: {
      '200': renderAnswer('The rendered manifest, ready for `kubectl apply -f -`.', {
        schema: manifest,
        examples: Object.fromEntries(collection.examples.map((example) => [example.name, { value: example.manifest }])),
      }),
      ...RENDER_ANSWERS,
    },
  };
}

/** An example batch: the seed example of each of up to four collections, values renamed apart. */
function batchExample(registry: BundleRegistry, vendor: string): Json {
  const resources: Json[] = [];
  const values: Json = {};
  const globalvars: Json = {};
  for (const [name, versions] of registry.repositories(vendor)!) {
    for (const collection of registry.latest(versions.get('v1') ?? [])?.bundle.collections ?? []) {
      const seed = collection.examples.find((example) => example.name === 'seed');
      if (seed === undefined || resources.length >= 4) continue;
      const request = seed.request as { facets?: string[]; values: Json; globalvars?: Record<string, string> };
      const id = request.globalvars?.[collection.variable] ?? Object.keys(request.values)[0]!;
      values[`${collection.name}-${id}`] = request.values[id];
      globalvars[collection.variable] = `${collection.name}-${id}`;
      resources.push({ repository: name, collection: collection.name, facets: request.facets ?? [] });
    }
  }
  return { resources, values, globalvars };
}

export function batchOperation(registry: BundleRegistry, vendor: string): Json {
  const repositories = [...registry.repositories(vendor)!.keys()].sort();
  return {
    operationId: `exec-batch-${vendor}`,
    tags: ['batch'],
    summary: 'Render several resources in one call',
    description:
      'Each resource names a repository and collection (and facets; optionally apiVersion, default v1, and ' +
      'release, default the latest). All share values and globalvars. ' +
      ('The answer is a v1 List (JSON) or a stream of YAML documents (YAML), items in request order; if ' +
        'anything is wrong nothing is rendered and the 422 lists every problem, with pointers into ' +
        '/resources/N/… and /values/….'),
    parameters: [FORMAT_PARAMETER, STRICT_PARAMETER],
    requestBody: requestBody(batchBody(repositories), {
      application: { summary: 'Several seed examples in one call', value: batchExample(registry, vendor) },
    }),
    responses: {
      '200': renderAnswer('A List, or YAML documents, for `kubectl apply -f -`.', {
        schema: {
          type: 'object',
          required: ['apiVersion', 'kind', 'items'],
          properties: {
            apiVersion: { const: 'v1' },
            kind: { const: 'List' },
            items: { type: 'array', items: { $ref: '#/components/schemas/Manifest' } },
          },
        },
      }),
      ...RENDER_ANSWERS,
    },
  };
}
