/**
 * The OpenAPI 3.1 document of the loaded bundles: one operation per exec path with its request
 * schema (the collection's generated input schema), examples and error answers, plus discovery,
 * health and metrics. Made once per bundle load.
 */
import type { BundleCollection, RepositoryIdentity } from '../bundle/bundle.js';
import { type BundleRegistry, latestBundle } from '../bundle/registry.js';
import { FORMATS, KUBERNETES_OBJECT_LIMIT_BYTES, MEDIA_TYPES } from '../manifest/format.js';
import { LISTED_PROBLEMS } from '../request/problems.js';
import type { RequestLimits } from './config.js';
import { API_KEY_HEADER } from './middleware/api-key.js';
import { BODY_LIMIT_BYTES, MAX_NESTING } from './middleware/json-body.js';
import { SCHEMAS_PREFIX } from './routes/schemas.js';
import { batchSchemaPath, LATEST, REPOSITORY_FORMAT_SCHEMAS } from '../schema/editor-schemas.js';
import { ANY_ANSWERS, BUSY, HEADERS, KEYED_ANSWERS, NOT_FOUND, okHeaders, problemAnswer, RENDER_ANSWERS, sharedResponses } from './openapi-answers.js';
import { hoist, SHARED_SCHEMAS } from './openapi-schemas.js';
import { PACKAGE_LICENSE } from '../util/package-version.js';

type Json = Record<string, unknown>;

const FORMAT_PARAMETER: Json = {
  name: 'format',
  in: 'query',
  description: 'Manifest format; when given, it wins over the Accept header. Without it, Accept chooses (application/json or application/yaml), JSON by default.',
  schema: { type: 'string', enum: [...FORMATS] },
};
const STRICT_PARAMETER: Json = { name: 'strict', in: 'query', description: 'Refuse input members the schema does not know (422), as `kubectl --validate=strict` does; without it they are rendered and each named in a `Warning` header. What is required does not change.', schema: { type: 'boolean', default: false } };

/** The 200 of a render route: JSON or YAML, as `format` or Accept chose. */
function renderAnswer(description: string, json: Json): Json {
  return {
    description,
    headers: okHeaders(true, 'Vary', 'X-Facetform-Release', 'X-Facetform-Bundle-Digest', 'Warning'),
    content: { [MEDIA_TYPES.json]: json, [MEDIA_TYPES.yaml]: { schema: { type: 'string', description: 'YAML documents, as kubectl reads them.' } } },
  };
}

function execOperation(repository: RepositoryIdentity, releases: string[], collection: BundleCollection, components: Json): Json {
  const prefix = `${repository.name}.${repository.apiVersion}.${collection.name}.`;
  components[`${prefix}Values`] = hoist(collection.schema, prefix, components);
  const sections = collection.sections.map((section) => `- \`${section.name}\` (${section.facets.join(', ')}): ${section.description}`).join('\n');
  const manifest = {
    type: 'object',
    required: ['apiVersion', 'kind', 'metadata'],
    properties: { apiVersion: { const: collection.apiVersion }, kind: { const: collection.kind }, metadata: { $ref: '#/components/schemas/ObjectMeta' } },
    additionalProperties: true,
  };
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
      '200': renderAnswer('The rendered manifest, ready for `kubectl apply -f -`.', { schema: manifest, examples: Object.fromEntries(collection.examples.map((example) => [example.name, { value: example.manifest }])) }),
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
    for (const collection of latestBundle(versions.get('v1') ?? [])?.bundle.collections ?? []) {
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
      'The answer is a v1 List (JSON) or a stream of YAML documents (YAML), items in request order; if anything is wrong nothing is rendered and the 422 lists every problem, with pointers into /resources/N/… and /values/….',
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
              values: { type: 'object', description: 'Input objects by id; each as the exec operation of every collection that reads it says.', additionalProperties: { type: 'object', additionalProperties: true } },
              globalvars: { type: 'object', additionalProperties: { type: 'string' } },
            },
          },
          examples: { application: { summary: 'Several seed examples in one call', value: batchExample(registry, vendor) } },
        },
      },
    },
    responses: {
      '200': renderAnswer('A List, or YAML documents, for `kubectl apply -f -`.', {
        schema: { type: 'object', required: ['apiVersion', 'kind', 'items'], properties: { apiVersion: { const: 'v1' }, kind: { const: 'List' }, items: { type: 'array', items: { $ref: '#/components/schemas/Manifest' } } } },
      }),
      ...RENDER_ANSWERS,
    },
  };
}

const pathParameter = (name: string, description: string): Json => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });
const schemaRef = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

function discoveryPaths(): Json {
  const vendor = pathParameter('vendor', 'Publisher of the templates.');
  const repository = pathParameter('repository', 'Template repository.');
  const apiVersion = pathParameter('apiVersion', 'API version of the repository, e.g. v1.');
  const collection = pathParameter('collection', 'Collection name.');
  const release = { name: 'release', in: 'query', description: 'Release; the latest by default.', schema: { type: 'string' } };
  const base = '/apis/repos/{vendor}/{repository}/{apiVersion}/resources/collections';
  /** A discovery route: its answer, and what else it may answer (`bundle`: it says which release answered). */
  const get = (operationId: string, summary: string, parameters: Json[], answer: { description: string; mediaType: string; schema: Json; bundle: boolean }, others: Json): Json => ({
    get: {
      operationId,
      tags: ['discovery'],
      summary,
      description: `${summary}. Built from the loaded bundles.`,
      parameters,
      responses: {
        '200': { description: answer.description, headers: okHeaders(true, ...(answer.bundle ? ['X-Facetform-Release', 'X-Facetform-Bundle-Digest'] : [])), content: { [answer.mediaType]: { schema: answer.schema } } },
        ...KEYED_ANSWERS,
        ...others,
      },
    },
  });
  const json = (description: string, name: string, bundle = true) => ({ description, mediaType: 'application/json', schema: schemaRef(name), bundle });
  const ofCollection = [vendor, repository, apiVersion, collection, release];
  return {
    '/apis/repos': get('list-vendors', 'Vendors served', [], json('Vendors.', 'VendorList', false), {}),
    '/apis/repos/{vendor}': get('list-repositories', 'Repositories of a vendor, with API versions and releases', [vendor], json('Repositories.', 'RepositoryList', false), NOT_FOUND),
    [base]: get('list-collections', 'Collections of a repository and their facets', [vendor, repository, apiVersion, release], json('Collections.', 'CollectionList'), NOT_FOUND),
    [`${base}/{collection}`]: get('get-collection', 'A collection: variable, kind, sections, examples', ofCollection, json('The collection.', 'Collection'), NOT_FOUND),
    [`${base}/{collection}/schema`]: get(
      'get-collection-schema',
      'JSON Schema of one input object of the collection',
      ofCollection,
      { description: 'The schema (JSON Schema draft-07).', mediaType: 'application/schema+json', schema: { type: 'object', additionalProperties: true }, bundle: true },
      { ...NOT_FOUND, ...BUSY },
    ),
    [`${base}/{collection}/types`]: get(
      'get-collection-types',
      'TypeScript declaration of one input object of the collection',
      ofCollection,
      { description: 'The declaration.', mediaType: 'text/plain', schema: { type: 'string' }, bundle: true },
      { ...NOT_FOUND, ...BUSY },
    ),
  };
}

function operationsPaths(): Json {
  const open = { security: [] };
  const operation = (operationId: string, summary: string, description: string, responses: Json, extra: Json = {}): Json => ({
    get: { ...extra, operationId, tags: ['operations'], summary, description, responses },
  });
  const ok = (description: string, keyed: boolean, mediaType: string, schema: Json): Json => ({ '200': { description, headers: okHeaders(keyed), content: { [mediaType]: { schema } } } });
  const status = { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } };
  const readiness = {
    type: 'object',
    required: ['status', 'bundles'],
    properties: {
      status: { enum: ['ready', 'degraded'] },
      bundles: { type: 'integer', minimum: 0 },
      workers: { type: 'object', required: ['wanted', 'listening'], properties: { wanted: { type: 'integer', minimum: 1 }, listening: { type: 'integer', minimum: 0 } } },
      detail: { type: 'string' },
    },
  };
  return {
    '/healthz': operation('healthz', 'Liveness', 'Answers while the process serves; needs no key.', { ...ok('Alive.', false, 'application/json', status), ...ANY_ANSWERS }, open),
    '/readyz': operation(
      'readyz',
      'Readiness',
      'Needs no key. With WORKERS, status is degraded while fewer workers serve than configured (a replacement is starting or could not start; detail says why). Degraded still answers 200: the pod serves, and taking it out of service would only cut capacity further.',
      { ...ok('Ready, or degraded.', false, 'application/json', readiness), ...ANY_ANSWERS, '503': problemAnswer('/problems/service-unavailable: not ready (bundles loading) or shutting down.') },
      open,
    ),
    '/metrics': operation(
      'metrics',
      'Prometheus metrics',
      'Needs the key unless OPEN_ROUTES names metrics. With WORKERS, one scrape covers the whole server: every worker summed, with the counts of workers that exited.',
      {
        ...ok('Metrics in the Prometheus text format.', true, 'text/plain', { type: 'string' }),
        ...KEYED_ANSWERS,
        '503': problemAnswer('/problems/service-unavailable: with WORKERS, the primary did not answer in time; or /problems/server-busy, with Retry-After.', 'Retry-After'),
      },
    ),
    '/openapi.json': operation('openapi', 'This document', 'Needs the key unless OPEN_ROUTES names openapi.', { ...ok('OpenAPI 3.1 document.', true, 'application/json', { type: 'object', additionalProperties: true }), ...KEYED_ANSWERS, ...BUSY }),
    ...schemaPaths(ok),
    '/problems/{type}': {
      get: {
        ...open,
        operationId: 'get-problem-type',
        tags: ['operations'],
        summary: 'A problem type',
        description: 'What a problem type means: the `type` of every problem answer points here. Needs no key.',
        parameters: [pathParameter('type', 'The problem type, as the end of a problem\'s `type`.')],
        responses: {
          ...ok('The problem type.', false, 'application/json', { type: 'object', required: ['type', 'description'], properties: { type: { type: 'string' }, description: { type: 'string' } } }),
          ...ANY_ANSWERS,
          ...NOT_FOUND,
        },
      },
    },
  };
}

/** GET /schemas/…: the editor schemas (src/schema/editor-schemas.ts), by the three shapes of their paths. */
function schemaPaths(ok: (description: string, keyed: boolean, mediaType: string, schema: Json) => Json): Json {
  const schema = { type: 'object', additionalProperties: true };
  const answered = (description: string): Json => {
    const answer = ok(description, true, 'application/schema+json', schema);
    (answer['200'] as { headers: Json }).headers = { ...(answer['200'] as { headers: Json }).headers, ETag: { $ref: '#/components/headers/ETag' } };
    return { ...answer, '304': { description: 'Not modified: If-None-Match named the schema\'s ETag.', headers: okHeaders(true, 'ETag') }, ...KEYED_ANSWERS, ...NOT_FOUND, ...BUSY };
  };
  const enumParameter = (name: string, description: string, values: string[]): Json => ({ ...pathParameter(name, description), schema: { type: 'string', enum: values } });
  const get = (operationId: string, summary: string, parameters: Json[]): Json => ({
    get: {
      operationId,
      tags: ['operations'],
      summary,
      description: 'A JSON Schema for editors, with a stable `$id` (urn:facetform:schema:<path>); the same bytes as dist/schemas/<path>. Needs the key unless OPEN_ROUTES names schemas.',
      parameters: [{ name: 'If-None-Match', in: 'header', required: false, description: 'An ETag this client holds: 304 when the schema is still that.', schema: { type: 'string' } }, ...parameters],
      responses: answered(summary + '.'),
    },
  });
  const requestFiles = (['request', 'request-file'] as const).map((kind) => `{collection}.${kind}.json`).join(' or ');
  return {
    [`${SCHEMAS_PREFIX}{file}`]: get('get-repository-format-schema', 'The schema of a repository file', [enumParameter('file', 'repository.json, collection.json or a section file.', Object.values(REPOSITORY_FORMAT_SCHEMAS))]),
    [`${SCHEMAS_PREFIX}{vendor}/{batchFile}`]: get('get-batch-schema', 'The schema of a vendor\'s batch request body, or of a BatchRequest file', [
      pathParameter('vendor', 'The vendor.'),
      enumParameter('batchFile', 'The body or the file.', (['request', 'request-file'] as const).map((kind) => batchSchemaPath('', kind).slice(1))),
    ]),
    [`${SCHEMAS_PREFIX}{vendor}/{repository}/{apiVersion}/{release}/{requestFile}`]: get('get-request-schema', 'The schema of an exec request body, or of a Request file, of one collection and release', [
      pathParameter('vendor', 'The vendor.'),
      pathParameter('repository', 'The repository.'),
      pathParameter('apiVersion', 'The API version, e.g. v1.'),
      pathParameter('release', `A release (X.Y.Z) or \`${LATEST}\`, the one exec answers with when no release is given.`),
      { ...pathParameter('requestFile', `${requestFiles}.`), schema: { type: 'string', pattern: '^[^/]+\\.request(-file)?\\.json$' } },
    ]),
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

function invalidValuesText(limits: RequestLimits): string {
  return (
    `/problems/invalid-values: facets, values or globalvars are wrong, a limit on what the values hold is passed, or an object would be larger than Kubernetes accepts (${KUBERNETES_OBJECT_LIMIT_BYTES} bytes of JSON); errors lists each problem with a JSON Pointer (at most ${LISTED_PROBLEMS}; more counts the rest). ` +
    `/problems/answer-too-large: the answer would pass ${limits.maxAnswerBytes} bytes (MAX_ANSWER_BYTES); errors points at the resource (or values entry) at which it passed, and limit says the bytes; nothing is rendered past it. Split the batch.`
  );
}

/** One tag per repository (its exec operations), then the tags of the other operations. */
function tags(registry: BundleRegistry): Json[] {
  const repositories = new Map<string, string>();
  for (const loaded of registry.bundles) if (!repositories.has(loaded.bundle.repository.name)) repositories.set(loaded.bundle.repository.name, loaded.bundle.repository.description);
  return [
    ...[...repositories].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, description]) => ({ name, description: `Render the collections of ${name}: ${description}` })),
    { name: 'batch', description: 'Render resources of several collections in one call.' },
    { name: 'discovery', description: 'What the server serves: vendors, repositories, releases, collections, their schemas and types.' },
    { name: 'operations', description: 'Health, readiness, metrics, and the description of the API itself.' },
  ];
}

export function buildOpenApi(registry: BundleRegistry, version: string, limits: RequestLimits): Json {
  const schemas: Json = { ...SHARED_SCHEMAS };
  const paths: Json = {};
  for (const vendor of registry.vendors()) {
    for (const [, versions] of registry.repositories(vendor)!) {
      for (const [, bundles] of versions) {
        const latest = latestBundle(bundles)!.bundle;
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
      description: `Renders Kubernetes manifests from template collections. Every /apis/ route needs an API key, in the ${API_KEY_HEADER} header or as Authorization: Bearer. Errors are RFC 9457 problem+json. ${limitsText(limits)}`,
      license: { name: PACKAGE_LICENSE, identifier: PACKAGE_LICENSE },
    },
    servers: [{ url: '/' }],
    // Either carrier of the key will do.
    security: [{ apiKey: [] }, { bearer: [] }],
    tags: tags(registry),
    paths: { ...paths, ...discoveryPaths(), ...operationsPaths() },
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'An API key (`facetform keys new NAME`).' },
        bearer: { type: 'http', scheme: 'bearer', description: `The same API key as a Bearer token, for tools that send only Authorization (Prometheus); ${API_KEY_HEADER} wins when both are sent.` },
      },
      schemas,
      headers: HEADERS,
      responses: sharedResponses(limits, { invalidValues: invalidValuesText(limits) }),
    },
  };
}
