/**
 * The discovery paths of the OpenAPI document: vendors, repositories, collections, their schemas and
 * types, each answered from the loaded bundles.
 */
import { BUSY, KEYED_ANSWERS, NOT_FOUND, okHeaders } from './answers.js';
import { pathParameter } from './parameters.js';

type Json = Record<string, unknown>;

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
