/**
 * Manifests of the distribution API: putting one under a tag or digest, fetching one (checked against
 * a digest it was asked by, and against the shape this client follows), and the digest a tag names.
 */
import { MAX_ANSWER_BYTES, readAtMost } from './bounded-read.js';
import { INDEX_MEDIA_TYPE, isManifest, type Manifest, MANIFEST_MEDIA_TYPE, sha256Digest } from './manifest.js';
import { RegistryError } from './registry-errors.js';
import type { RegistryHttp } from './registry-http.js';

/** Puts a manifest under a tag or its digest; returns its digest and whether the registry read its subject (referrers API). */
export async function pushManifest(
  http: RegistryHttp,
  name: string,
  reference: string,
  manifest: Manifest,
): Promise<{ digest: string; subjectProcessed: boolean }> {
  const bytes = Buffer.from(JSON.stringify(manifest));
  const response = await http.request(`repository:${name}:pull,push`, 'PUT', http.url(name, `manifests/${reference}`), {
    headers: { 'content-type': manifest.mediaType },
    body: bytes,
  });
  if (response.status !== 201) throw await http.failure(`PUT manifest ${reference} of ${name}`, response);
  await response.body?.cancel();
  return { digest: sha256Digest(bytes), subjectProcessed: response.headers.has('oci-subject') };
}

/** The manifest a tag or digest names, with its digest, or undefined when there is none. */
export async function pullManifest(
  http: RegistryHttp,
  name: string,
  reference: string,
): Promise<{ manifest: Manifest; digest: string; bytes: Buffer } | undefined> {
  const response = await http.request(`repository:${name}:pull`, 'GET', http.url(name, `manifests/${reference}`), {
    headers: { accept: `${MANIFEST_MEDIA_TYPE}, ${INDEX_MEDIA_TYPE}` },
  });
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.ok) throw await http.failure(`GET manifest ${reference} of ${name}`, response);
  const bytes = await readAtMost(response, MAX_ANSWER_BYTES, `manifest ${reference} of ${name}`);
  const digest = sha256Digest(bytes);
  if (reference.startsWith('sha256:') && digest !== reference)
    throw new RegistryError(`${http.registry} answered manifest ${reference} of ${name} with other content (${digest})`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(bytes.toString('utf8')) as Manifest;
  } catch {
    throw new RegistryError(`${http.registry} answered manifest ${reference} of ${name} with something that is not JSON`);
  }
  if (!isManifest(manifest))
    throw new RegistryError(
      `${http.registry} answered manifest ${reference} of ${name} with something that is not an OCI manifest or index`,
    );
  return { manifest, digest, bytes };
}

/** The digest a tag names, or undefined when the tag does not exist. */
export async function manifestDigest(http: RegistryHttp, name: string, reference: string): Promise<string | undefined> {
  const response = await http.request(`repository:${name}:pull`, 'HEAD', http.url(name, `manifests/${reference}`), {
    headers: { accept: `${MANIFEST_MEDIA_TYPE}, ${INDEX_MEDIA_TYPE}` },
  });
  if (response.status === 404) return undefined;
  if (!response.ok) throw await http.failure(`HEAD manifest ${reference} of ${name}`, response);
  const digest = response.headers.get('docker-content-digest');
  if (digest !== null) return digest;
  return (await pullManifest(http, name, reference))?.digest;
}
