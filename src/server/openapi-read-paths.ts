/**
 * The paths of the OpenAPI document that read: discovery (vendors, repositories, collections, their
 * schemas and types), health, readiness, metrics, the document itself, editor schemas and problem types.
 */
import { SCHEMAS_PREFIX } from './routes/schemas.js';
import { batchSchemaPath, LATEST, REPOSITORY_FORMAT_SCHEMAS } from '../schema/editor-schemas.js';
import { ANY_ANSWERS, BUSY, KEYED_ANSWERS, NOT_FOUND, okHeaders, problemAnswer } from './openapi-answers.js';

type Json = Record<string, unknown>;

const pathParameter = (name: string, description: string): Json => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});
const schemaRef = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

export function discoveryPaths(): Json {
  const vendor = pathParameter('vendor', 'Publisher of the templates.');
  const repository = pathParameter('repository', 'Template repository.');
  const apiVersion = pathParameter('apiVersion', 'API version of the repository, e.g. v1.');
  const collection = pathParameter('collection', 'Collection name.');
  const release = { name: 'release', in: 'query', description: 'Release; the latest by default.', schema: { type: 'string' } };
  const base = '/apis/repos/{vendor}/{repository}/{apiVersion}/resources/collections';
  /** A discovery route: its answer, and what else it may answer (`bundle`: it says which release answered). */
  const get = (
    operationId: string,
    summary: string,
    parameters: Json[],
    answer: { description: string; mediaType: string; schema: Json; bundle: boolean },
    others: Json,
  ): Json => ({
    get: {
      operationId,
      tags: ['discovery'],
      summary,
      description: `${summary}. Built from the loaded bundles.`,
      parameters,
      responses: {
        '200': {
          description: answer.description,
          headers: okHeaders(true, ...(answer.bundle ? ['X-Facetform-Release', 'X-Facetform-Bundle-Digest'] : [])),
          content: { [answer.mediaType]: { schema: answer.schema } },
        },
        ...KEYED_ANSWERS,
        ...others,
      },
    },
  });
  const json = (description: string, name: string, bundle = true) => ({
    description,
    mediaType: 'application/json',
    schema: schemaRef(name),
    bundle,
  });
  const ofCollection = [vendor, repository, apiVersion, collection, release];
  return {
    '/apis/repos': get('list-vendors', 'Vendors served', [], json('Vendors.', 'VendorList', false), {}),
    '/apis/repos/{vendor}': get(
      'list-repositories',
      'Repositories of a vendor, with API versions and releases',
      [vendor],
      json('Repositories.', 'RepositoryList', false),
      NOT_FOUND,
    ),
    [base]: get(
      'list-collections',
      'Collections of a repository and their facets',
      [vendor, repository, apiVersion, release],
      json('Collections.', 'CollectionList'),
      NOT_FOUND,
    ),
    [`${base}/{collection}`]: get(
      'get-collection',
      'A collection: variable, kind, sections, examples',
      ofCollection,
      json('The collection.', 'Collection'),
      NOT_FOUND,
    ),
    [`${base}/{collection}/schema`]: get(
      'get-collection-schema',
      'JSON Schema of one input object of the collection',
      ofCollection,
      {
        description: 'The schema (JSON Schema draft-07).',
        mediaType: 'application/schema+json',
        schema: { type: 'object', additionalProperties: true },
        bundle: true,
      },
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

export function operationsPaths(): Json {
  const open = { security: [] };
  const operation = (operationId: string, summary: string, description: string, responses: Json, extra: Json = {}): Json => ({
    get: { ...extra, operationId, tags: ['operations'], summary, description, responses },
  });
  const ok = (description: string, keyed: boolean, mediaType: string, schema: Json): Json => ({
    '200': { description, headers: okHeaders(keyed), content: { [mediaType]: { schema } } },
  });
  const status = { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } };
  const readiness = {
    type: 'object',
    required: ['status', 'bundles'],
    properties: {
      status: { enum: ['ready', 'degraded'] },
      bundles: { type: 'integer', minimum: 0 },
      workers: {
        type: 'object',
        required: ['wanted', 'listening'],
        properties: { wanted: { type: 'integer', minimum: 1 }, listening: { type: 'integer', minimum: 0 } },
      },
      detail: { type: 'string' },
    },
  };
  return {
    '/healthz': operation(
      'healthz',
      'Liveness',
      'Answers while the process serves; needs no key.',
      { ...ok('Alive.', false, 'application/json', status), ...ANY_ANSWERS },
      open,
    ),
    '/readyz': operation(
      'readyz',
      'Readiness',
      'Needs no key. With WORKERS, status is degraded while fewer workers serve than configured (a replacement is starting or could not start; detail says why). Degraded still answers 200: the pod serves, and taking it out of service would only cut capacity further.',
      {
        ...ok('Ready, or degraded.', false, 'application/json', readiness),
        ...ANY_ANSWERS,
        '503': problemAnswer('/problems/service-unavailable: not ready (bundles loading) or shutting down.'),
      },
      open,
    ),
    '/metrics': operation(
      'metrics',
      'Prometheus metrics',
      'Needs the key unless OPEN_ROUTES names metrics. With WORKERS, one scrape covers the whole server: every worker summed, with the counts of workers that exited.',
      {
        ...ok('Metrics in the Prometheus text format.', true, 'text/plain', { type: 'string' }),
        ...KEYED_ANSWERS,
        '503': problemAnswer(
          '/problems/service-unavailable: with WORKERS, the primary did not answer in time; or /problems/server-busy, with Retry-After.',
          'Retry-After',
        ),
      },
    ),
    '/openapi.json': operation('openapi', 'This document', 'Needs the key unless OPEN_ROUTES names openapi.', {
      ...ok('OpenAPI 3.1 document.', true, 'application/json', { type: 'object', additionalProperties: true }),
      ...KEYED_ANSWERS,
      ...BUSY,
    }),
    ...schemaPaths(ok),
    '/problems/{type}': {
      get: {
        ...open,
        operationId: 'get-problem-type',
        tags: ['operations'],
        summary: 'A problem type',
        description: 'What a problem type means: the `type` of every problem answer points here. Needs no key.',
        parameters: [pathParameter('type', "The problem type, as the end of a problem's `type`.")],
        responses: {
          ...ok('The problem type.', false, 'application/json', {
            type: 'object',
            required: ['type', 'description'],
            properties: { type: { type: 'string' }, description: { type: 'string' } },
          }),
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
    (answer['200'] as { headers: Json }).headers = {
      ...(answer['200'] as { headers: Json }).headers,
      ETag: { $ref: '#/components/headers/ETag' },
    };
    return {
      ...answer,
      '304': { description: "Not modified: If-None-Match named the schema's ETag.", headers: okHeaders(true, 'ETag') },
      ...KEYED_ANSWERS,
      ...NOT_FOUND,
      ...BUSY,
    };
  };
  const enumParameter = (name: string, description: string, values: string[]): Json => ({
    ...pathParameter(name, description),
    schema: { type: 'string', enum: values },
  });
  const get = (operationId: string, summary: string, parameters: Json[]): Json => ({
    get: {
      operationId,
      tags: ['operations'],
      summary,
      description:
        'A JSON Schema for editors, with a stable `$id` (urn:facetform:schema:<path>); the same bytes as dist/schemas/<path>. Needs the key unless OPEN_ROUTES names schemas.',
      parameters: [
        {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'An ETag this client holds: 304 when the schema is still that.',
          schema: { type: 'string' },
        },
        ...parameters,
      ],
      responses: answered(summary + '.'),
    },
  });
  const requestFiles = (['request', 'request-file'] as const).map((kind) => `{collection}.${kind}.json`).join(' or ');
  return {
    [`${SCHEMAS_PREFIX}{file}`]: get('get-repository-format-schema', 'The schema of a repository file', [
      enumParameter('file', 'repository.json, collection.json or a section file.', Object.values(REPOSITORY_FORMAT_SCHEMAS)),
    ]),
    [`${SCHEMAS_PREFIX}{vendor}/{batchFile}`]: get(
      'get-batch-schema',
      "The schema of a vendor's batch request body, or of a BatchRequest file",
      [
        pathParameter('vendor', 'The vendor.'),
        enumParameter(
          'batchFile',
          'The body or the file.',
          (['request', 'request-file'] as const).map((kind) => batchSchemaPath('', kind).slice(1)),
        ),
      ],
    ),
    [`${SCHEMAS_PREFIX}{vendor}/{repository}/{apiVersion}/{release}/{requestFile}`]: get(
      'get-request-schema',
      'The schema of an exec request body, or of a Request file, of one collection and release',
      [
        pathParameter('vendor', 'The vendor.'),
        pathParameter('repository', 'The repository.'),
        pathParameter('apiVersion', 'The API version, e.g. v1.'),
        pathParameter('release', `A release (X.Y.Z) or \`${LATEST}\`, the one exec answers with when no release is given.`),
        { ...pathParameter('requestFile', `${requestFiles}.`), schema: { type: 'string', pattern: '^[^/]+\\.request(-file)?\\.json$' } },
      ],
    ),
  };
}
