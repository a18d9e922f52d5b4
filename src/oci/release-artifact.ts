/**
 * A release as an OCI artifact: one layer per file of its folder in dist/ (bundle.json, schemas/,
 * types/), each named by `org.opencontainers.image.title` as ORAS names files, under the
 * artifactType below, with the bundle's digest and identity in annotations. The manifest is made
 * from the release alone (no push time in it), so pushing a release again makes the same digest.
 * A signature is a second artifact whose subject is the release's manifest (signature.ts). This
 * module is the layout that both sides read: pushing is release-push.ts, pulling and checking
 * release-pull.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ReleaseFiles } from '../bundle/add-release.js';
import type { Bundle } from '../bundle/bundle.js';
import { BUNDLE_FILE } from '../bundle/dist-layout.js';
import { type Descriptor, type Manifest, MANIFEST_MEDIA_TYPE, sha256Digest } from './manifest.js';

export const BUNDLE_ARTIFACT_TYPE = 'application/vnd.facetform.bundle.v1';
export const SIGNATURE_ARTIFACT_TYPE = 'application/vnd.facetform.signature.v1';
const BUNDLE_MEDIA_TYPE = 'application/vnd.facetform.bundle.v1+json';
export const SIGNATURE_MEDIA_TYPE = 'application/vnd.facetform.signature.v1+json';
const EMPTY_MEDIA_TYPE = 'application/vnd.oci.empty.v1+json';
/** The empty config blob every artifact of ours names, as OCI 1.1 asks of an artifact without one. */
export const EMPTY = Buffer.from('{}');
export const TITLE = 'org.opencontainers.image.title';
export const ANNOTATIONS = {
  bundleDigest: 'dev.facetform.bundle.digest',
  repository: 'dev.facetform.repository',
  vendor: 'dev.facetform.vendor',
  apiVersion: 'dev.facetform.api-version',
  signingKey: 'dev.facetform.signature.key-id',
  version: 'org.opencontainers.image.version',
  created: 'org.opencontainers.image.created',
} as const;

const mediaTypeOf = (relative: string): string =>
  relative === BUNDLE_FILE ? BUNDLE_MEDIA_TYPE : relative.endsWith('.json') ? 'application/schema+json' : 'text/plain';

export const emptyConfig = (): Descriptor => ({ mediaType: EMPTY_MEDIA_TYPE, digest: sha256Digest(EMPTY), size: EMPTY.length });

/** Every file of a release folder, by path relative to it, in a stable order. */
export function releaseFiles(folder: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), relative);
      else if (entry.isFile()) files.set(relative, readFileSync(path.join(dir, entry.name)));
    }
  };
  walk(folder, '');
  return files;
}

/** The manifest of a release's artifact, and its blobs by digest. */
export function releaseArtifact(bundle: Bundle, files: ReleaseFiles, date: string): { manifest: Manifest; blobs: Map<string, Uint8Array> } {
  const blobs = new Map<string, Uint8Array>([[sha256Digest(EMPTY), EMPTY]]);
  const layers: Descriptor[] = [];
  for (const [relative, bytes] of files) {
    const digest = sha256Digest(bytes);
    blobs.set(digest, bytes);
    layers.push({ mediaType: mediaTypeOf(relative), digest, size: bytes.length, annotations: { [TITLE]: relative } });
  }
  const { name, vendor, apiVersion, release } = bundle.repository;
  return {
    manifest: {
      schemaVersion: 2,
      mediaType: MANIFEST_MEDIA_TYPE,
      artifactType: BUNDLE_ARTIFACT_TYPE,
      config: emptyConfig(),
      layers,
      annotations: {
        [ANNOTATIONS.bundleDigest]: bundle.digest,
        [ANNOTATIONS.repository]: name,
        [ANNOTATIONS.vendor]: vendor,
        [ANNOTATIONS.apiVersion]: apiVersion,
        [ANNOTATIONS.version]: release,
        [ANNOTATIONS.created]: date,
      },
    },
    blobs,
  };
}
