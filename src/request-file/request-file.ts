/**
 * Request files: a facetform request kept in Git as a Kubernetes-style resource, so that kustomize,
 * Argo CD and editors can find, check and render it. The spec of a `Request` is an exec request
 * body plus the names the exec path carries; the spec of a `BatchRequest` is a batch body plus the
 * vendor. This module is the one home of that shape: the wrapper's JSON Schema below is what the
 * gitops tools check files against, and what the editor schemas extend with a collection's body.
 */
import type { BatchResource } from '../request/request-shape.js';

export const REQUEST_FILE_API_VERSION = 'facetform.dev/v1alpha1';
export const REQUEST_KIND = 'Request';
export const BATCH_REQUEST_KIND = 'BatchRequest';

export interface RequestFileMetadata {
  /** Names the request in errors and KRM results; it is not rendered. */
  name: string;
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
}

export interface RequestSpec {
  /** Needed only when more than one vendor has a repository of this name. */
  vendor?: string;
  repository: string;
  /** Default v1, as for a batch resource. */
  apiVersion?: string;
  /** Default: the latest release of the API version. */
  release?: string;
  collection: string;
  facets?: string[];
  values: Record<string, unknown>;
  globalvars?: Record<string, string>;
}

export interface BatchRequestSpec {
  /** Needed only when more than one vendor is served. */
  vendor?: string;
  resources: BatchResource[];
  values: Record<string, unknown>;
  globalvars?: Record<string, string>;
}

export type RequestFile =
  | { apiVersion: typeof REQUEST_FILE_API_VERSION; kind: typeof REQUEST_KIND; metadata: RequestFileMetadata; spec: RequestSpec }
  | { apiVersion: typeof REQUEST_FILE_API_VERSION; kind: typeof BATCH_REQUEST_KIND; metadata: RequestFileMetadata; spec: BatchRequestSpec };

/** The members of a Request's spec that name its target; the rest (facets, values, globalvars) is the exec body. */
export const REQUEST_TARGET_MEMBERS = ['vendor', 'repository', 'apiVersion', 'release', 'collection'] as const;

const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;
const name = { type: 'string', minLength: 1 } as const;

const metadataSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { ...name, description: 'Names the request in errors and results; it is not rendered.' },
    annotations: stringMap,
    labels: stringMap,
  },
  additionalProperties: false,
} as const;

/**
 * The wrapper of a request file, for one kind: `body` is the schema of the spec's body members
 * (facets, values, globalvars; or resources, values, globalvars), merged into spec's properties. With
 * no body given, the body members are only typed loosely; the exec and batch checks judge them.
 */
export function requestFileSchema(
  kind: typeof REQUEST_KIND | typeof BATCH_REQUEST_KIND,
  body: { properties?: Record<string, unknown>; required?: string[] } = {},
): Record<string, unknown> {
  const target =
    kind === REQUEST_KIND ? { vendor: name, repository: name, apiVersion: name, release: name, collection: name } : { vendor: name };
  const looseBody =
    kind === REQUEST_KIND
      ? { facets: { type: 'array', items: { type: 'string' } }, values: { type: 'object' }, globalvars: stringMap }
      : { resources: { type: 'array', items: { type: 'object' } }, values: { type: 'object' }, globalvars: stringMap };
  const required = kind === REQUEST_KIND ? ['repository', 'collection', 'values'] : ['resources', 'values'];
  return {
    type: 'object',
    required: ['apiVersion', 'kind', 'metadata', 'spec'],
    properties: {
      apiVersion: { const: REQUEST_FILE_API_VERSION },
      kind: { const: kind },
      metadata: metadataSchema,
      spec: {
        type: 'object',
        required: [...new Set([...required, ...(body.required ?? [])])],
        properties: { ...target, ...looseBody, ...body.properties },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };
}
