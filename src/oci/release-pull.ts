/**
 * Pulling a release is checking it: nothing the registry answers is written or served before every
 * blob matches its digest, the bundle its own digest and the manifest's, its identity the name and
 * tag it was pulled by, and, with trusted keys, a signature by one of them (signature.ts).
 */
import type { KeyObject } from 'node:crypto';
import { releasePathsProblem } from '../bundle/add-release.js';
import type { Bundle } from '../bundle/bundle.js';
import { BundleLoadError, parseBundle } from '../bundle/bundle-file.js';
import { BUNDLE_FILE } from '../bundle/dist-layout.js';
import type { RegistryClient } from './distribution.js';
import { ANNOTATIONS, BUNDLE_ARTIFACT_TYPE, SIGNATURE_ARTIFACT_TYPE, SIGNATURE_MEDIA_TYPE, TITLE } from './release-artifact.js';
import { checkSignature } from './signature.js';

/** A whole release's files, in all: more than any release of ours (a few hundred KiB), less than would hurt a server that pulls it. */
const MAX_RELEASE_BYTES = 64 * 1024 * 1024;
/** Signatures read per release before giving up: a registry may hold many, most of other keys. */
const MAX_SIGNATURES = 16;

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
