/**
 * JSON Schemas of requests, for editors: the exec request body of one collection of one release
 * (facets from the collection, values typed by its input schema), the Request file around it, and
 * one vendor's batch request and BatchRequest file, whose resources' facets are checked per
 * collection and release. Made from bundles alone, by narrowing the request's shape
 * (src/request/request-shape.ts): editors are told more than the server checks, not less.
 */
import type { Bundle, BundleCollection } from '../bundle/bundle.js';
import { BATCH_REQUEST_KIND, REQUEST_KIND, requestFileSchema } from '../request-file/request-file.js';
import { batchRequestSchema, DEFAULT_API_VERSION, execRequestSchema } from '../request/request-shape.js';
import type { Schema } from '../kubernetes/kind-schema.js';

/** Where a collection's input schema goes among the definitions; no Kubernetes type name has a dot and this prefix. */
const VALUES_DEFINITION = 'facetform.values';

/** A release's bundle, and whether it is what callers get when they name no release. */
export interface Release {
  bundle: Bundle;
  latest: boolean;
}

const EXEC = execRequestSchema.properties;
const BATCH = batchRequestSchema.properties;
const RESOURCE = BATCH.resources.items;

/** Facets named once each, of `items`. */
const distinctFacets = (items: Schema, description: string): Schema => ({ type: EXEC.facets.type, uniqueItems: true, items, description });

const facetsSchema = (facets: readonly string[]): Schema =>
  distinctFacets(
    { enum: [...facets] },
    `The facets to add: every section sharing one is rendered; master sections always are. This collection's: ${facets.join(', ')}.`,
  );

/** The members of an exec request body for `collection`, and the definitions they refer to. */
function execBody(collection: BundleCollection): { properties: Record<string, Schema>; definitions: Schema } {
  const { $schema: _draft, definitions, ...values } = collection.schema;
  return {
    properties: {
      facets: facetsSchema(collection.facets),
      values: { ...EXEC.values, additionalProperties: { $ref: `#/definitions/${VALUES_DEFINITION}` } },
      globalvars: {
        type: EXEC.globalvars.type,
        properties: { [collection.variable]: { type: 'string', description: `The key of values that ${collection.variable} reads.` } },
        additionalProperties: false,
        description: `Which values entry each template variable reads; this collection's variable is ${collection.variable}.`,
      },
    },
    definitions: { ...(definitions as Schema | undefined), [VALUES_DEFINITION]: values },
  };
}

const target = (bundle: Bundle, collection: BundleCollection) =>
  `${bundle.repository.vendor}/${bundle.repository.name} ${bundle.repository.apiVersion} ${collection.name}`;

/** The body of POST …/collections/<collection>/exec. `$description` is allowed, as example files carry one; the server ignores it. */
export function execRequestSchemaOf({ bundle, latest }: Release, collection: BundleCollection): Schema {
  const { properties, definitions } = execBody(collection);
  return {
    title: `facetform exec request: ${target(bundle, collection)}${latest ? ' (latest)' : ` ${bundle.repository.release}`}`,
    description:
      `The body of POST /apis/repos/${bundle.repository.vendor}/${bundle.repository.name}/${bundle.repository.apiVersion}/resources/collections/${collection.name}/exec: ` +
      `${collection.description}`,
    type: execRequestSchema.type,
    required: execRequestSchema.required,
    properties: {
      $description: { type: 'string', description: 'For readers: what the request is for. The server ignores it.' },
      ...properties,
    },
    additionalProperties: false,
    definitions,
  };
}

/**
 * A Request file of one collection. Of a release: `release` is required and pinned. The latest
 * alias leaves it out, or names the latest release; a request pinned to another uses that release's schema.
 */
export function requestFileSchemaOf({ bundle, latest }: Release, collection: BundleCollection): Schema {
  const { vendor, name, apiVersion, release } = bundle.repository;
  const { properties, definitions } = execBody(collection);
  const pinned = (value: string, description: string): Schema => ({ const: value, description });
  const spec = {
    properties: {
      vendor: pinned(vendor, 'The vendor; needed only when more than one vendor has a repository of this name.'),
      repository: pinned(name, 'The template repository.'),
      apiVersion: pinned(apiVersion, `The API version; default ${DEFAULT_API_VERSION}.`),
      release: pinned(
        release,
        latest
          ? 'Leave out to follow the latest release; to pin another, use the schema of that release.'
          : 'The release this request is pinned to.',
      ),
      collection: pinned(collection.name, `The collection: ${collection.description}`),
      ...properties,
    },
    required: [...(apiVersion === DEFAULT_API_VERSION ? [] : ['apiVersion']), ...(latest ? [] : ['release'])],
  };
  return {
    title: `facetform Request: ${target(bundle, collection)}${latest ? ' (latest)' : ` ${release}`}`,
    description: `A ${REQUEST_KIND} file: ${collection.description}`,
    ...requestFileSchema(REQUEST_KIND, spec),
    definitions,
  };
}

/** What a batch resource may name, per repository, API version and release (absent: the latest), with each collection's facets. */
function resourceRules(releases: readonly Release[]): Schema[] {
  const rules: Schema[] = [];
  const byRepository = new Map<string, Release[]>();
  for (const release of releases)
    byRepository.set(release.bundle.repository.name, [...(byRepository.get(release.bundle.repository.name) ?? []), release]);
  for (const [repository, ofRepository] of byRepository) {
    const apiVersions = [...new Set(ofRepository.map(({ bundle }) => bundle.repository.apiVersion))];
    rules.push({
      if: { properties: { repository: { const: repository } }, required: ['repository'] },
      then: { properties: { apiVersion: { enum: apiVersions } } },
    });
    for (const apiVersion of apiVersions) {
      const ofVersion = ofRepository.filter(({ bundle }) => bundle.repository.apiVersion === apiVersion);
      // An absent apiVersion is the default one.
      const version: Schema = {
        properties: { repository: { const: repository }, apiVersion: { const: apiVersion } },
        required: apiVersion === DEFAULT_API_VERSION ? ['repository'] : ['repository', 'apiVersion'],
      };
      const choices: Array<[Schema, Bundle]> = ofVersion.map(({ bundle }) => [
        { properties: { release: { const: bundle.repository.release } }, required: ['release'] },
        bundle,
      ]);
      const latest = ofVersion.find((release) => release.latest);
      if (latest !== undefined) choices.push([{ not: { required: ['release'] } }, latest.bundle]);
      // Nested: the release's collections, then each collection's facets.
      const ofRelease = ([release, bundle]: [Schema, Bundle]): Schema => ({
        if: release,
        then: {
          properties: { collection: { enum: bundle.collections.map((collection) => collection.name) } },
          allOf: bundle.collections.map((collection) => ({
            if: { properties: { collection: { const: collection.name } }, required: ['collection'] },
            then: { properties: { facets: { type: 'array', items: { enum: collection.facets } } } },
          })),
        },
      });
      rules.push({
        if: version,
        then: {
          properties: { release: { enum: ofVersion.map(({ bundle }) => bundle.repository.release) } },
          allOf: choices.map(ofRelease),
        },
      });
    }
  }
  return rules;
}

function batchBody(vendor: string, releases: readonly Release[]): { properties: Record<string, Schema>; definitions: Schema } {
  const repositories = [...new Set(releases.map(({ bundle }) => bundle.repository.name))];
  const {
    repository: _named,
    collection: { minLength: _enum, ...collection },
    facets,
    ...rest
  } = RESOURCE.properties;
  const resource: Schema = {
    ...RESOURCE,
    // Both names are narrowed to the names there are (repository here, collection by resourceRules): no least length.
    properties: {
      repository: { enum: repositories, description: `A template repository of ${vendor}.` },
      collection,
      facets: distinctFacets(facets.items, facets.description),
      ...rest,
    },
    allOf: resourceRules(releases),
  };
  return {
    properties: {
      resources: { ...BATCH.resources, items: { $ref: '#/definitions/resource' } },
      values: BATCH.values,
      globalvars: BATCH.globalvars,
    },
    definitions: { resource },
  };
}

/** The body of POST /apis/repos/<vendor>/exec. */
export function batchRequestSchemaOf(vendor: string, releases: readonly Release[]): Schema {
  const { properties, definitions } = batchBody(vendor, releases);
  return {
    title: `facetform batch request: ${vendor}`,
    description: `The body of POST /apis/repos/${vendor}/exec: several resources in one call.`,
    type: batchRequestSchema.type,
    required: batchRequestSchema.required,
    properties,
    additionalProperties: false,
    definitions,
  };
}

export function batchRequestFileSchema(vendor: string, releases: readonly Release[]): Schema {
  const { properties, definitions } = batchBody(vendor, releases);
  return {
    title: `facetform BatchRequest: ${vendor}`,
    description: `A ${BATCH_REQUEST_KIND} file: several resources of ${vendor} in one call.`,
    ...requestFileSchema(BATCH_REQUEST_KIND, {
      properties: { vendor: { const: vendor, description: 'Needed only when more than one vendor is served.' }, ...properties },
    }),
    definitions,
  };
}
