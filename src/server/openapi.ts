/**
 * The OpenAPI 3.1 document of the loaded bundles: one operation per exec path with its request
 * schema (the collection's generated input schema), examples and error answers, plus discovery,
 * health and metrics. Made once per bundle load.
 */
import type { BundleCollection, RepositoryIdentity } from '../bundle/bundle.js';
import type { BundleRegistry } from '../bundle/registry.js';
import { FORMATS } from '../manifest/format.js';
import type { Schema } from '../schema/kube-types.js';
import { isPlainObject } from '../util/json.js';
import { API_KEY_HEADER } from './middleware/api-key.js';
import { KUBERNETES_OBJECT_LIMIT_BYTES } from '../manifest/format.js';
import { LISTED_PROBLEMS } from '../render/render-error.js';
import type { RequestLimits } from './config.js';
import { BODY_LIMIT_BYTES, MAX_NESTING } from './middleware/json-body.js';
import { PROBLEM_TYPES } from './problem.js';

type Json = Record<string, unknown>;

const problemResponse = (description: string): Json => ({ description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } });

const FORMAT_PARAMETER: Json = { name: 'format', in: 'query', description: 'Manifest format.', schema: { type: 'string', enum: [...FORMATS], default: 'json' } };
const STRICT_PARAMETER: Json = { name: 'strict', in: 'query', description: 'Refuse input members the schema does not know (422), as `kubectl --validate=strict` does; without it they are rendered and each named in a `Warning` header. What is required does not change.', schema: { type: 'boolean', default: false } };

const ERROR_RESPONSES: Json = {
  '400': { $ref: '#/components/responses/BadRequest' },
  '401': { $ref: '#/components/responses/Unauthorized' },
  '404': { $ref: '#/components/responses/NotFound' },
};

/** What the render routes (exec and batch) answer besides ERROR_RESPONSES: a body, its values, or its answer over a limit. */
const RENDER_ERROR_RESPONSES: Json = {
  '413': { $ref: '#/components/responses/PayloadTooLarge' },
  '415': { $ref: '#/components/responses/UnsupportedMediaType' },
  '422': { $ref: '#/components/responses/InvalidValues' },
  '503': { $ref: '#/components/responses/ServerBusy' },
};

/** Moves a schema's `definitions` into components under a prefix, rewriting its references. */
function hoist(schema: Schema, prefix: string, components: Json): Json {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!isPlainObject(node)) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$schema' || key === 'definitions') continue;
      out[key] = key === '$ref' && typeof value === 'string' ? value.replace('#/definitions/', `#/components/schemas/${prefix}`) : rewrite(value);
    }
    // A property named like a keyword (JSONSchemaProps has "$ref" and "$schema") reads as a
    // reference to OpenAPI tools; patternProperties says the same thing without that name.
    if (isPlainObject(out.properties)) {
      const dollar = Object.keys(out.properties).filter((name) => name.startsWith('$'));
      if (dollar.length > 0) {
        const properties = { ...(out.properties as Json) };
        const patterns: Json = { ...((out.patternProperties as Json) ?? {}) };
        for (const name of dollar) {
          patterns[`^${name.replace(/[$^.*+?()[\]{}|\\]/g, '\\$&')}$`] = properties[name];
          delete properties[name];
        }
        out.properties = properties;
        out.patternProperties = patterns;
      }
    }
    return out;
  };
  for (const [name, definition] of Object.entries((schema.definitions as Record<string, Schema>) ?? {})) components[`${prefix}${name}`] = rewrite(definition);
  return rewrite(schema) as Json;
}

function execOperation(repository: RepositoryIdentity, releases: string[], collection: BundleCollection, components: Json): Json {
  const prefix = `${repository.name}.${repository.apiVersion}.${collection.name}.`;
  components[`${prefix}Values`] = hoist(collection.schema, prefix, components);
  const sections = collection.sections.map((section) => `- \`${section.name}\` (${section.facets.join(', ')}): ${section.description}`).join('\n');
  return {
    operationId: `exec-${repository.name}-${repository.apiVersion}-${collection.name}`,
    tags: [repository.name],
    summary: `Render a ${collection.kind} (${collection.apiVersion})`,
    description: `${collection.description}\n\nTemplate variable: \`${collection.variable}\`. Sections:\n${sections}\n\nMaster sections are always rendered; each requested facet adds every section that carries it.`,
    parameters: [
      FORMAT_PARAMETER,
      STRICT_PARAMETER,
      { name: 'release', in: 'query', description: 'Release of the repository to render with; the latest by default.', schema: { type: 'string', enum: releases } },
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['values'],
            properties: {
              facets: { type: 'array', items: { type: 'string', enum: collection.facets }, description: 'Facets selecting sections; master sections are always included.' },
              values: { type: 'object', description: 'Input objects by id.', additionalProperties: { $ref: `#/components/schemas/${prefix}Values` } },
              globalvars: {
                type: 'object',
                description: `Maps ${collection.variable} to the key of values to read; optional when values has one entry.`,
                properties: { [collection.variable]: { type: 'string' } },
                additionalProperties: { type: 'string' },
              },
            },
          },
          examples: Object.fromEntries(collection.examples.map((example) => [example.name, { summary: example.description || example.name, value: example.request }])),
        },
      },
    },
    responses: {
      '200': {
        description: 'The rendered manifest, ready for `kubectl apply -f -`.',
        headers: {
          'X-Facetform-Release': { description: 'Release of the bundle that rendered the answer.', schema: { type: 'string' } },
          'X-Facetform-Bundle-Digest': { description: 'sha256 digest of that bundle.', schema: { type: 'string' } },
          Warning: { description: 'One `299 - "unknown field …"` per input member the schema does not know.', schema: { type: 'string' } },
        },
        content: {
          'application/json': {
            schema: { type: 'object', required: ['apiVersion', 'kind', 'metadata'], properties: { apiVersion: { const: collection.apiVersion }, kind: { const: collection.kind }, metadata: { type: 'object' } } },
            examples: Object.fromEntries(collection.examples.map((example) => [example.name, { value: example.manifest }])),
          },
          'application/yaml': { schema: { type: 'string' } },
        },
      },
      ...ERROR_RESPONSES,
      '405': { $ref: '#/components/responses/MethodNotAllowed' },
      ...RENDER_ERROR_RESPONSES,
    },
  };
}

/** An example batch: the seed example of each of up to four collections, values renamed apart. */
function batchExample(registry: BundleRegistry, vendor: string): Json {
  const resources: Json[] = [];
  const values: Json = {};
  const globalvars: Json = {};
  for (const [name, versions] of registry.repositories(vendor)!) {
    for (const collection of versions.get('v1')?.[0]?.bundle.collections ?? []) {
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

function batchOperation(registry: BundleRegistry, vendor: string): Json {
  const repositories = [...registry.repositories(vendor)!.keys()].sort();
  return {
    operationId: `exec-batch-${vendor}`,
    tags: ['batch'],
    summary: 'Render several resources in one call',
    description:
      'Each resource names a repository and collection (and facets; optionally apiVersion, default v1, and release, default the latest). All share values and globalvars. ' +
      'The answer is a v1 List (format=json) or a stream of YAML documents (format=yaml), items in request order; if anything is wrong nothing is rendered and the 422 lists every problem, with pointers into /resources/N/… and /values/….',
    parameters: [FORMAT_PARAMETER, STRICT_PARAMETER],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['resources', 'values'],
            properties: {
              resources: {
                type: 'array',
                minItems: 1,
                items: {
                  type: 'object',
                  required: ['repository', 'collection'],
                  additionalProperties: false,
                  properties: {
                    repository: { type: 'string', enum: repositories },
                    collection: { type: 'string' },
                    facets: { type: 'array', items: { type: 'string' } },
                    apiVersion: { type: 'string', default: 'v1' },
                    release: { type: 'string' },
                  },
                },
              },
              values: { type: 'object', additionalProperties: { type: 'object' } },
              globalvars: { type: 'object', additionalProperties: { type: 'string' } },
            },
          },
          examples: { application: { summary: 'Several seed examples in one call', value: batchExample(registry, vendor) } },
        },
      },
    },
    responses: {
      '200': {
        description: 'A List, or YAML documents, for `kubectl apply -f -`.',
        headers: {
          'X-Facetform-Release': { description: 'repository/apiVersion/release of every bundle that rendered, comma-separated.', schema: { type: 'string' } },
          'X-Facetform-Bundle-Digest': { description: 'Their digests, in the same order.', schema: { type: 'string' } },
        },
        content: {
          'application/json': { schema: { type: 'object', required: ['apiVersion', 'kind', 'items'], properties: { apiVersion: { const: 'v1' }, kind: { const: 'List' }, items: { type: 'array', items: { type: 'object' } } } } },
          'application/yaml': { schema: { type: 'string' } },
        },
      },
      ...ERROR_RESPONSES,
      ...RENDER_ERROR_RESPONSES,
    },
  };
}

const pathParameter = (name: string, description: string): Json => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });

function discoveryPaths(): Json {
  const vendor = pathParameter('vendor', 'Publisher of the templates.');
  const repository = pathParameter('repository', 'Template repository.');
  const apiVersion = pathParameter('apiVersion', 'API version of the repository, e.g. v1.');
  const collection = pathParameter('collection', 'Collection name.');
  const release = { name: 'release', in: 'query', description: 'Release; the latest by default.', schema: { type: 'string' } };
  const base = '/apis/repos/{vendor}/{repository}/{apiVersion}/resources/collections';
  const get = (operationId: string, summary: string, parameters: Json[], description: string, mediaType = 'application/json'): Json => ({
    get: {
      operationId,
      tags: ['discovery'],
      summary,
      parameters,
      responses: { '200': { description, content: { [mediaType]: { schema: { type: mediaType === 'text/plain' ? 'string' : 'object' } } } }, ...ERROR_RESPONSES },
    },
  });
  const ofCollection = [vendor, repository, apiVersion, collection, release];
  return {
    '/apis/repos': get('list-vendors', 'Vendors served', [], 'Vendors.'),
    '/apis/repos/{vendor}': get('list-repositories', 'Repositories of a vendor, with API versions and releases', [vendor], 'Repositories.'),
    [base]: get('list-collections', 'Collections of a repository and their facets', [vendor, repository, apiVersion, release], 'Collections.'),
    [`${base}/{collection}`]: get('get-collection', 'A collection: variable, kind, sections, examples', ofCollection, 'The collection.'),
    [`${base}/{collection}/schema`]: get('get-collection-schema', 'JSON Schema of one input object of the collection', ofCollection, 'The schema.', 'application/schema+json'),
    [`${base}/{collection}/types`]: get('get-collection-types', 'TypeScript declaration of one input object of the collection', ofCollection, 'The declaration.', 'text/plain'),
  };
}

function operationsPaths(): Json {
  const open = { security: [] };
  const text = (description: string, type: string): Json => ({ description, content: { [type]: { schema: { type: 'string' } } } });
  return {
    '/healthz': { get: { ...open, operationId: 'healthz', tags: ['operations'], summary: 'Liveness', responses: { '200': { description: 'Alive.' } } } },
    '/readyz': {
      get: {
        ...open,
        operationId: 'readyz',
        tags: ['operations'],
        summary: 'Readiness',
        description: 'With WORKERS, status is degraded while fewer workers serve than configured (a replacement is starting or could not start; detail says why). Degraded still answers 200: the pod serves, and taking it out of service would only cut capacity further.',
        responses: {
          '200': {
            description: 'Ready, or degraded.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['status', 'bundles'],
                  properties: {
                    status: { enum: ['ready', 'degraded'] },
                    bundles: { type: 'integer', minimum: 0 },
                    workers: { type: 'object', required: ['wanted', 'listening'], properties: { wanted: { type: 'integer', minimum: 1 }, listening: { type: 'integer', minimum: 0 } } },
                    detail: { type: 'string' },
                  },
                },
              },
            },
          },
          '503': problemResponse('Not ready or shutting down.'),
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        tags: ['operations'],
        summary: 'Prometheus metrics',
        description: 'Needs the key unless OPEN_ROUTES names metrics. With WORKERS, one scrape covers the whole server: every worker summed, with the counts of workers that exited.',
        responses: { '200': text('Metrics in the Prometheus text format.', 'text/plain'), '401': { $ref: '#/components/responses/Unauthorized' }, '503': problemResponse('With WORKERS, the primary did not answer in time.') },
      },
    },
    '/openapi.json': { get: { operationId: 'openapi', tags: ['operations'], summary: 'This document', description: 'Needs the key unless OPEN_ROUTES names openapi.', responses: { '200': { description: 'OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } }, '401': { $ref: '#/components/responses/Unauthorized' } } } },
  };
}

/** The limits of CONTRACT §7 as this server applies them, said once for the document's description. */
function limitsText(limits: RequestLimits): string {
  return [
    `A body is at most ${BODY_LIMIT_BYTES} bytes (413) and ${MAX_NESTING} levels deep (400).`,
    `Its values hold at most ${limits.maxValuesEntries} entries, ${limits.maxItems} items or members in any one array or object, strings of ${limits.maxStringLength} characters, and ${limits.maxValuesNodes} JSON values in all; a batch at most ${limits.maxResources} resources, and its resources may read at most ${limits.maxValuesNodes} JSON values and ${limits.maxAnswerBytes} bytes of values in all, each resource counting the entry it reads (422).`,
    `An answer is at most ${limits.maxAnswerBytes} bytes (422 /problems/answer-too-large, checked as it is written); an object whose JSON passes ${KUBERNETES_OBJECT_LIMIT_BYTES} bytes, which the Kubernetes API server refuses, is a 422 too.`,
    `A 422 lists at most ${LISTED_PROBLEMS} problems and counts the rest in more.`,
    `The bodies being read and answers not yet taken of all callers share ${limits.maxInflightBytes} bytes, one key at most half: past that, 503 /problems/server-busy with Retry-After.`,
  ].join(' ');
}

export function buildOpenApi(registry: BundleRegistry, version: string, limits: RequestLimits): Json {
  const schemas: Json = {
    Problem: {
      type: 'object',
      description: 'RFC 9457 problem details.',
      required: ['type', 'title', 'status', 'detail'],
      properties: {
        type: { type: 'string', description: `A relative URI: /problems/<type>, one of ${Object.keys(PROBLEM_TYPES).join(', ')}.` },
        title: { type: 'string' },
        status: { type: 'integer' },
        detail: { type: 'string' },
        instance: { type: 'string', description: 'urn:request:<request id>' },
        errors: { type: 'array', maxItems: LISTED_PROBLEMS, items: { type: 'object', required: ['pointer', 'detail'], properties: { pointer: { type: 'string', description: 'JSON Pointer into the request body.' }, detail: { type: 'string' } } } },
        more: { type: 'integer', minimum: 1, description: `How many problems errors leaves out: it lists at most ${LISTED_PROBLEMS}.` },
        limit: { type: 'integer', description: 'With answer-too-large: the most bytes one answer may hold.' },
      },
    },
  };
  const paths: Json = {};
  for (const vendor of registry.vendors()) {
    for (const [, versions] of registry.repositories(vendor)!) {
      for (const [, bundles] of versions) {
        const latest = bundles[0]!.bundle;
        const releases = bundles.map((loaded) => loaded.bundle.repository.release);
        for (const collection of latest.collections) {
          const { name, apiVersion } = latest.repository;
          paths[`/apis/repos/${vendor}/${name}/${apiVersion}/resources/collections/${collection.name}/exec`] = { post: execOperation(latest.repository, releases, collection, schemas) };
        }
      }
    }
  }
  for (const vendor of registry.vendors()) paths[`/apis/repos/${vendor}/exec`] = { post: batchOperation(registry, vendor) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'facetform render API',
      version,
      description: `Renders Kubernetes manifests from template collections. Every /apis/ route needs the ${API_KEY_HEADER} header. Errors are RFC 9457 problem+json. ${limitsText(limits)}`,
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }],
    tags: [{ name: 'batch' }, { name: 'discovery' }, { name: 'operations' }],
    paths: { ...paths, ...discoveryPaths(), ...operationsPaths() },
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER } },
      schemas,
      responses: {
        BadRequest: problemResponse('Malformed JSON, nesting too deep, a number too large to represent, a lone UTF-16 surrogate, or a query parameter the route does not take (`known` lists those it takes) or with a wrong value; errors names the JSON Pointer when there is one.'),
        Unauthorized: problemResponse(`${API_KEY_HEADER} is missing or not valid.`),
        NotFound: problemResponse('No such vendor, repository, API version, release or collection; the answer names what exists.'),
        MethodNotAllowed: problemResponse('Only POST; the Allow header says so.'),
        PayloadTooLarge: problemResponse(`Body over ${BODY_LIMIT_BYTES} bytes.`),
        UnsupportedMediaType: problemResponse('Body is not application/json.'),
        InvalidValues: problemResponse(
          `/problems/invalid-values: facets, values or globalvars are wrong, a limit on what the values hold is passed, or an object would be larger than Kubernetes accepts (${KUBERNETES_OBJECT_LIMIT_BYTES} bytes of JSON); errors lists each problem with a JSON Pointer (at most ${LISTED_PROBLEMS}; more counts the rest). ` +
            `/problems/answer-too-large: the answer would pass ${limits.maxAnswerBytes} bytes (MAX_ANSWER_BYTES); errors points at the resource (or values entry) at which it passed, and limit says the bytes; nothing is rendered past it. Split the batch.`,
        ),
        ServerBusy: {
          ...problemResponse(`/problems/server-busy: the bodies and unsent answers of all callers already take what the server may hold (${limits.maxInflightBytes} bytes, one key at most half). Retry after Retry-After seconds.`),
          headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } },
        },
      },
    },
  };
}
