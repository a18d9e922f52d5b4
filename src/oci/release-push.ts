/**
 * Pushing a release: its blobs and manifest under the tag of its release, which is never replaced by
 * other content (tags of releases are immutable), and with a key its signature as a referrer.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { ReleaseFiles } from '../bundle/add-release.js';
import type { Bundle } from '../bundle/bundle.js';
import { type Descriptor, type Manifest, MANIFEST_MEDIA_TYPE, RegistryClient, RegistryError, sha256Digest } from './distribution.js';
import { ANNOTATIONS, EMPTY, emptyConfig, releaseArtifact, SIGNATURE_ARTIFACT_TYPE, SIGNATURE_MEDIA_TYPE } from './release-artifact.js';
import { keyIdOf, type SignatureDocument, signDigest } from './signature.js';

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
