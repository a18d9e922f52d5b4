/**
 * A release as an OCI artifact: one layer per file of its folder in dist/ (bundle.json, schemas/,
 * types/), each named by `org.opencontainers.image.title` as ORAS names files, under the
 * artifactType below, with the bundle's digest and identity in annotations. The manifest is made
 * from the release alone (no push time in it), so pushing a release again makes the same digest.
 * A signature is a second artifact whose subject is the release's manifest (signature.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { type ReleaseFiles, releasePathsProblem } from '../bundle/add-release.js';
import type { Bundle } from '../bundle/bundle.js';
import { BundleLoadError, parseBundle } from '../bundle/bundle-file.js';
import { BUNDLE_FILE } from '../bundle/dist-layout.js';
import { type Descriptor, type Manifest, MANIFEST_MEDIA_TYPE, RegistryClient, RegistryError, sha256Digest } from './distribution.js';
import { checkSignature, keyIdOf, type SignatureDocument, signDigest } from './signature.js';

export const BUNDLE_ARTIFACT_TYPE = 'application/vnd.facetform.bundle.v1';
export const SIGNATURE_ARTIFACT_TYPE = 'application/vnd.facetform.signature.v1';
const BUNDLE_MEDIA_TYPE = 'application/vnd.facetform.bundle.v1+json';
const SIGNATURE_MEDIA_TYPE = 'application/vnd.facetform.signature.v1+json';
const EMPTY_MEDIA_TYPE = 'application/vnd.oci.empty.v1+json';
const EMPTY = Buffer.from('{}');
const TITLE = 'org.opencontainers.image.title';
export const ANNOTATIONS = {
  bundleDigest: 'dev.facetform.bundle.digest',
  repository: 'dev.facetform.repository',
  vendor: 'dev.facetform.vendor',
  apiVersion: 'dev.facetform.api-version',
  signingKey: 'dev.facetform.signature.key-id',
  version: 'org.opencontainers.image.version',
  created: 'org.opencontainers.image.created',
} as const;
/** A whole release's files, in all: more than any release of ours (a few hundred KiB), less than would hurt a server that pulls it. */
const MAX_RELEASE_BYTES = 64 * 1024 * 1024;
/** Signatures read per release before giving up: a registry may hold many, most of other keys. */
const MAX_SIGNATURES = 16;

const mediaTypeOf = (relative: string): string =>
  relative === BUNDLE_FILE ? BUNDLE_MEDIA_TYPE : relative.endsWith('.json') ? 'application/schema+json' : 'text/plain';

const emptyConfig = (): Descriptor => ({ mediaType: EMPTY_MEDIA_TYPE, digest: sha256Digest(EMPTY), size: EMPTY.length });

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

export interface PushOutcome {
  digest: string;
  /** 'pushed', or 'present' when the tag already held this very release. */
  outcome: 'pushed' | 'present';
  signedBy?: string;
}

/** The tag `release` of `name` holds a release already: the same one is fine, another is refused (tags are immutable). */
export async function pushRelease(
  client: RegistryClient,
  name: string,
  bundle: Bundle,
  files: ReleaseFiles,
  date: string,
  signingKey?: KeyObject,
): Promise<PushOutcome> {
  const { manifest, blobs } = releaseArtifact(bundle, files, date);
  // The bytes pushManifest sends (JSON.stringify of the same object): their digest and size name the release.
  const manifestBytes = Buffer.from(JSON.stringify(manifest));
  const digest = sha256Digest(manifestBytes);
  const tag = bundle.repository.release;
  const held = await client.manifestDigest(name, tag);
  if (held !== undefined && held !== digest) {
    throw new RegistryError(
      `${client.registry}/${name}:${tag} already holds other content (${held}, this release is ${digest}); ` +
        'a pushed release is never replaced: build and push a new release',
    );
  }
  let outcome: PushOutcome['outcome'] = 'present';
  if (held === undefined) {
    // A few uploads at a time: each blob is a HEAD, a POST and a PUT, mostly waiting on the registry.
    const queue = [...blobs];
    const upload = async (): Promise<void> => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await client.pushBlob(name, next[1], next[0]);
    };
    await Promise.all(Array.from({ length: 4 }, upload));
    await client.pushManifest(name, tag, manifest);
    outcome = 'pushed';
  }
  if (signingKey === undefined) return { digest, outcome };
  // A release signed by this key already is not signed again: ECDSA signs differently every time, and
  // a push run after every build must not pile up signatures that a pull reads one by one.
  const keyId = keyIdOf(createPublicKey(signingKey));
  const signatures = await client.referrers(name, digest, SIGNATURE_ARTIFACT_TYPE);
  if (signatures.some((referrer) => referrer.annotations?.[ANNOTATIONS.signingKey] === keyId)) return { digest, outcome, signedBy: keyId };
  const signature = signDigest(digest, signingKey);
  await pushSignature(client, name, { mediaType: MANIFEST_MEDIA_TYPE, digest, size: manifestBytes.length }, signature);
  return { digest, outcome, signedBy: signature.keyId };
}

/** Stores a signature as a referrer of `subject`; where the registry does not read subjects, through the fallback tag. */
async function pushSignature(client: RegistryClient, name: string, subject: Descriptor, signature: SignatureDocument): Promise<void> {
  const bytes = Buffer.from(JSON.stringify(signature));
  await client.pushBlob(name, EMPTY);
  await client.pushBlob(name, bytes);
  const annotations = { [ANNOTATIONS.signingKey]: signature.keyId };
  const manifest: Manifest = {
    schemaVersion: 2,
    mediaType: MANIFEST_MEDIA_TYPE,
    artifactType: SIGNATURE_ARTIFACT_TYPE,
    config: emptyConfig(),
    layers: [{ mediaType: SIGNATURE_MEDIA_TYPE, digest: sha256Digest(bytes), size: bytes.length }],
    subject,
    annotations,
  };
  const manifestBytes = Buffer.from(JSON.stringify(manifest));
  const pushed = await client.pushManifest(name, sha256Digest(manifestBytes), manifest);
  if (!pushed.subjectProcessed) {
    const descriptor = {
      mediaType: MANIFEST_MEDIA_TYPE,
      digest: pushed.digest,
      size: manifestBytes.length,
      artifactType: SIGNATURE_ARTIFACT_TYPE,
      annotations,
    };
    await client.addFallbackReferrer(name, subject.digest, descriptor);
  }
}

/** A release as pulled and checked: its bundle, files, manifest digest, build date, and the key that signed it. */
export interface PulledRelease {
  bundle: Bundle;
  files: Map<string, Uint8Array>;
  digest: string;
  date: string;
  signedBy?: string;
}

/** A release the registry holds but that may not be served: which one, and why, in words. */
export class RefusedReleaseError extends Error {
  constructor(
    readonly reference: string,
    readonly reason: 'unsigned' | 'signature' | 'content',
    readonly why: string,
  ) {
    super(`${reference} is refused: ${why}`);
    this.name = 'RefusedReleaseError';
  }
}

/**
 * Pulls the release `tag` of `name` and checks it: every blob against its digest, the bundle against
 * its own digest and the manifest's annotation, its identity against the tag, and, with trusted keys,
 * a signature by one of them. Returns undefined when the tag does not exist.
 */
export async function pullRelease(
  client: RegistryClient,
  name: string,
  tag: string,
  trusted?: readonly KeyObject[],
): Promise<PulledRelease | undefined> {
  const reference = `${client.registry}/${name}:${tag}`;
  const pulled = await client.pullManifest(name, tag);
  if (pulled === undefined) return undefined;
  const { manifest, digest } = pulled;
  const refuse = (why: string) => new RefusedReleaseError(reference, 'content', why);
  if (manifest.artifactType !== BUNDLE_ARTIFACT_TYPE)
    throw refuse(
      `it is not a facetform release (its artifactType is ${JSON.stringify(manifest.artifactType ?? null)}, not ${BUNDLE_ARTIFACT_TYPE})`,
    );
  let signedBy: string | undefined;
  if (trusted !== undefined) signedBy = await checkSignatures(client, name, digest, trusted, reference);
  const layers = manifest.layers ?? [];
  const titlesProblem = releasePathsProblem(layers.map((layer) => layer.annotations?.[TITLE]));
  if (titlesProblem !== undefined) throw refuse(`its layer titles are not the files of a release folder: ${titlesProblem}`);
  // Sizes are checked before any byte is fetched; each blob is then read up to its declared size and no further.
  const total = layers.reduce((sum, layer) => sum + layer.size, 0);
  if (total > MAX_RELEASE_BYTES) throw refuse(`its files are ${total} bytes in all, more than the ${MAX_RELEASE_BYTES} a release may have`);
  const files = new Map<string, Uint8Array>();
  for (const layer of layers) {
    const title = layer.annotations![TITLE]!;
    const bytes = await client.pullBlob(name, layer.digest, layer.size);
    if (bytes.length !== layer.size) throw refuse(`its file ${title} is ${bytes.length} bytes, not the ${layer.size} its manifest says`);
    files.set(title, bytes);
  }
  const bundleBytes = files.get(BUNDLE_FILE);
  if (bundleBytes === undefined) throw refuse(`it has no ${BUNDLE_FILE}`);
  let bundle: Bundle;
  try {
    bundle = parseBundle(Buffer.from(bundleBytes).toString('utf8'), `${reference} ${BUNDLE_FILE}`);
  } catch (error) {
    if (error instanceof BundleLoadError) throw refuse(error.message);
    throw error;
  }
  const annotations = manifest.annotations ?? {};
  if (annotations[ANNOTATIONS.bundleDigest] !== bundle.digest)
    throw refuse(`its bundle's digest ${bundle.digest} differs from the manifest's ${String(annotations[ANNOTATIONS.bundleDigest])}`);
  const { name: repository, apiVersion, release } = bundle.repository;
  if (release !== tag || !(name === `${repository}/${apiVersion}` || name.endsWith(`/${repository}/${apiVersion}`)))
    throw refuse(`it holds ${repository} ${apiVersion} release ${release}, which does not belong under this name and tag`);
  const date = /^\d{4}-\d{2}-\d{2}$/.test(annotations[ANNOTATIONS.created] ?? '')
    ? annotations[ANNOTATIONS.created]!
    : new Date().toISOString().slice(0, 10);
  return { bundle, files, digest, date, ...(signedBy === undefined ? {} : { signedBy }) };
}

/** The id of the trusted key that signed `digest`; a RefusedReleaseError says whether it is unsigned or badly signed. */
async function checkSignatures(
  client: RegistryClient,
  name: string,
  digest: string,
  trusted: readonly KeyObject[],
  reference: string,
): Promise<string> {
  const referrers = await client.referrers(name, digest, SIGNATURE_ARTIFACT_TYPE);
  if (referrers.length === 0) throw new RefusedReleaseError(reference, 'unsigned', 'it is not signed, and a trust key is configured');
  const whys = new Set<string>();
  for (const referrer of referrers.slice(0, MAX_SIGNATURES)) {
    const signature = (await client.pullManifest(name, referrer.digest))?.manifest;
    const layer = signature?.layers?.[0];
    if (signature?.subject?.digest !== digest || layer?.mediaType !== SIGNATURE_MEDIA_TYPE) {
      whys.add('a signature referrer is not a facetform signature of this release');
      continue;
    }
    let document: unknown;
    try {
      document = JSON.parse((await client.pullBlob(name, layer.digest, 64 * 1024)).toString('utf8'));
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
    const checked = checkSignature(document, digest, trusted);
    if (checked.ok) return checked.keyId;
    whys.add(checked.why);
  }
  throw new RefusedReleaseError(reference, 'signature', [...whys].join('; '));
}
