/**
 * Editor schemas: every JSON Schema an editor may check a facetform file against, by its path
 * under dist/schemas/ (and the server's /schemas/), which is also its `$id`:
 *
 *   repository.json, collection.json, section.json                  the repository format
 *   <vendor>/batch-request.json, <vendor>/batch-request-file.json     a vendor's batch body, BatchRequest file
 *   <vendor>/<repository>/<apiVersion>/<release>/<collection>.request.json        exec request body
 *   <vendor>/<repository>/<apiVersion>/<release>/<collection>.request-file.json   Request file
 *   <vendor>/<repository>/<apiVersion>/latest/…                       the same, for the latest release
 *
 * Each stands alone (its definitions inline), in the input schemas' dialect, and is a pure function
 * of the bundles: the same on every machine and build.
 */
import type { Bundle } from '../bundle/bundle.js';
import { compareReleases, latestRelease } from '../release/release.js';
import { SCHEMA_DRAFT } from '../schema/input-schema.js';
import type { Schema } from '../kubernetes/kind-schema.js';
import { COLLECTION_SCHEMA, REPOSITORY_SCHEMA, SECTION_SCHEMA } from './repository-format-schemas.js';
import { batchRequestFileSchema, batchRequestSchemaOf, execRequestSchemaOf, type Release, requestFileSchemaOf } from './request-schemas.js';

/** Stable across machines and builds: no host, no date. */
export const SCHEMA_ID_PREFIX = 'urn:facetform:schema:';
export const LATEST = 'latest';

export const REPOSITORY_FORMAT_SCHEMAS = { repository: 'repository.json', collection: 'collection.json', section: 'section.json' } as const;

export type RequestSchemaKind = 'request' | 'request-file';

export function requestSchemaPath(
  vendor: string,
  repository: string,
  apiVersion: string,
  release: string,
  collection: string,
  kind: RequestSchemaKind,
): string {
  return `${vendor}/${repository}/${apiVersion}/${release}/${collection}.${kind}.json`;
}

export function batchSchemaPath(vendor: string, kind: RequestSchemaKind): string {
  return `${vendor}/batch-${kind}.json`;
}

const identified = (path: string, schema: Schema): Schema => ({ $schema: SCHEMA_DRAFT, $id: SCHEMA_ID_PREFIX + path, ...schema });

/**
 * Every editor schema of these bundles, by path in a stable order, each made only when asked for:
 * a server with many collections keeps the ones editors fetch, not all.
 */
export function editorSchemaMakers(bundles: readonly Bundle[]): Map<string, () => Schema> {
  const makers = new Map<string, () => Schema>([
    [REPOSITORY_FORMAT_SCHEMAS.repository, () => REPOSITORY_SCHEMA],
    [REPOSITORY_FORMAT_SCHEMAS.collection, () => COLLECTION_SCHEMA],
    [REPOSITORY_FORMAT_SCHEMAS.section, () => SECTION_SCHEMA],
  ]);
  const byVendor = new Map<string, Release[]>();
  for (const releases of releaseGroups(bundles)) {
    const latest = latestRelease(releases, (bundle) => bundle.repository.release);
    for (const bundle of releases) {
      const { vendor, name, apiVersion } = bundle.repository;
      byVendor.set(vendor, [...(byVendor.get(vendor) ?? []), { bundle, latest: bundle === latest }]);
      const as = bundle === latest ? [bundle.repository.release, LATEST] : [bundle.repository.release];
      for (const release of as) {
        const at: Release = { bundle, latest: release === LATEST };
        for (const collection of bundle.collections) {
          makers.set(requestSchemaPath(vendor, name, apiVersion, release, collection.name, 'request'), () =>
            execRequestSchemaOf(at, collection),
          );
          makers.set(requestSchemaPath(vendor, name, apiVersion, release, collection.name, 'request-file'), () =>
            requestFileSchemaOf(at, collection),
          );
        }
      }
    }
  }
  for (const [vendor, releases] of byVendor) {
    makers.set(batchSchemaPath(vendor, 'request'), () => batchRequestSchemaOf(vendor, releases));
    makers.set(batchSchemaPath(vendor, 'request-file'), () => batchRequestFileSchema(vendor, releases));
  }
  return new Map([...makers.keys()].sort().map((path) => [path, () => identified(path, makers.get(path)!())]));
}

/** The text of one editor schema, as the build writes it and the server answers it. */
export const schemaText = (schema: Schema): string => JSON.stringify(schema, null, 2) + '\n';

/** Every editor schema's file, by path. */
export function editorSchemaFiles(bundles: readonly Bundle[]): Map<string, string> {
  return new Map([...editorSchemaMakers(bundles)].map(([path, make]) => [path, schemaText(make())]));
}

/** The releases of each vendor, repository and API version, highest first. */
function releaseGroups(bundles: readonly Bundle[]): Bundle[][] {
  const groups = new Map<string, Bundle[]>();
  for (const bundle of bundles) {
    const key = [bundle.repository.vendor, bundle.repository.name, bundle.repository.apiVersion].join('\u0000');
    groups.set(key, [...(groups.get(key) ?? []), bundle]);
  }
  return [...groups.keys()]
    .sort()
    .map((key) => groups.get(key)!.sort((a, b) => compareReleases(b.repository.release, a.repository.release)));
}
