/**
 * The OpenAPI 3.1 document of the loaded bundles: one operation per exec path with its request
 * schema (the collection's generated input schema), examples and error answers, plus discovery,
 * health and metrics. Made once per bundle load; the operations are made in render-paths.ts
 * (exec and batch), discovery-paths.ts and operations-paths.ts (the rest).
 */
import type { BundleRegistry } from '../../bundle/registry.js';
import { KUBERNETES_OBJECT_LIMIT_BYTES } from '../../manifest/format.js';
import { LISTED_PROBLEMS } from '../../request/problems.js';
import type { RequestLimits } from '../config.js';
import { API_KEY_HEADER } from '../pipeline/api-key.js';
import { BODY_LIMIT_BYTES, MAX_NESTING } from '../pipeline/json-body.js';
import { HEADERS, sharedResponses } from './answers.js';
import { discoveryPaths } from './discovery-paths.js';
import { operationsPaths } from './operations-paths.js';
import { batchOperation, execOperation } from './render-paths.js';
import { SHARED_SCHEMAS } from './schemas.js';
import { PACKAGE_LICENSE } from '../../util/package-version.js';

type Json = Record<string, unknown>;

/** The limits of CONTRACT §7 as this server applies them, said once for the document's description. */
function limitsText(limits: RequestLimits): string {
  return [
    `A body is at most ${BODY_LIMIT_BYTES} bytes (413) and ${MAX_NESTING} levels deep (400).`,
    `Its values hold at most ${limits.maxValuesEntries} entries, ${limits.maxItems} ` +
      `items or members in any one array or object, strings of ${limits.maxStringLength} ` +
      `characters, and ${limits.maxValuesNodes} JSON values in all; ` +
      `a batch at most ${limits.maxResources} resources, and its resources ` +
      `may read at most ${limits.maxValuesNodes} JSON values and ${limits.maxAnswerBytes} ` +
      `bytes of values in all, each resource counting the entry it reads ` +
      `(422).`,
    `An answer is at most ${limits.maxAnswerBytes} bytes (422 /problems/answer-too-large, ` +
      `checked as it is written); an object whose JSON passes ${KUBERNETES_OBJECT_LIMIT_BYTES} ` +
      `bytes, which the Kubernetes API server refuses, is a 422 too.`,
    `A 422 lists at most ${LISTED_PROBLEMS} problems and counts the rest in more.`,
    `The bodies being read and answers not yet taken of all callers ` +
      `share ${limits.maxInflightBytes} bytes, one key at most half: ` +
      `past that, 503 /problems/server-busy with Retry-After.`,
  ].join(' ');
}

function invalidValuesText(limits: RequestLimits): string {
  return (
    `/problems/invalid-values: facets, values or globalvars are wrong, ` +
    `a limit on what the values hold is passed, or an object would ` +
    `be larger than Kubernetes accepts (${KUBERNETES_OBJECT_LIMIT_BYTES} ` +
    `bytes of JSON); errors lists each problem with a JSON Pointer ` +
    `(at most ${LISTED_PROBLEMS}; more counts the rest). ` +
    (`/problems/answer-too-large: the answer would pass ${limits.maxAnswerBytes} ` +
      `bytes (MAX_ANSWER_BYTES); errors points at the resource (or values ` +
      `entry) at which it passed, and limit says the bytes; nothing ` +
      `is rendered past it. Split the batch.`)
  );
}

/** One tag per repository (its exec operations), then the tags of the other operations. */
function tags(registry: BundleRegistry): Json[] {
  const repositories = new Map<string, string>();
  for (const vendor of registry.vendors()) {
    for (const [name, versions] of registry.repositories(vendor)!) {
      repositories.set(name, registry.description(versions));
    }
  }
  return [
    ...[...repositories]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, description]) => ({ name, description: `Render the collections of ${name}: ${description}` })),
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
        const latest = registry.latest(bundles)!.bundle;
        const releases = bundles.map((loaded) => loaded.bundle.repository.release);
        for (const collection of latest.collections) {
          const { name, apiVersion } = latest.repository;
          paths[`/apis/repos/${vendor}/${name}/${apiVersion}/resources/collections/${collection.name}/exec`] = {
            post: execOperation(latest.repository, releases, collection, schemas),
          };
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
      description:
        `Renders Kubernetes manifests from template collections. Every ` +
        `/apis/ route needs an API key, in the ${API_KEY_HEADER} header ` +
        `or as Authorization: Bearer. Errors are RFC 9457 problem+json. ` +
        `${limitsText(limits)}`,
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
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: `The same API key as a Bearer token, for tools that send only Authorization (Prometheus); ${API_KEY_HEADER} wins when both are sent.`,
        },
      },
      schemas,
      headers: HEADERS,
      responses: sharedResponses(limits, { invalidValues: invalidValuesText(limits) }),
    },
  };
}
