/**
 * Referrers (OCI 1.1): the artifacts whose subject is a manifest, such as a release's signatures.
 * From the referrers API where the registry has it, else from the fallback tag `sha256-<hex>`, an
 * index the client keeps itself (Debian's registry 2.8 has only that).
 */
import { readJson } from './bounded-read.js';
import { type Descriptor, fallbackTag, INDEX_MEDIA_TYPE, isManifest, type Manifest } from './manifest.js';
import { pullManifest, pushManifest } from './manifest-transfer.js';
import { RegistryError } from './registry-errors.js';
import type { RegistryHttp } from './registry-http.js';

/** The referrers of a manifest of `artifactType`, from the referrers API or else the fallback tag. */
export async function referrers(http: RegistryHttp, name: string, digest: string, artifactType: string): Promise<Descriptor[]> {
  const url = new URL(http.url(name, `referrers/${digest}`));
  url.searchParams.set('artifactType', artifactType);
  const response = await http.request(`repository:${name}:pull`, 'GET', url.href, { headers: { accept: INDEX_MEDIA_TYPE } });
  let index: Manifest | undefined;
  if (response.ok && (response.headers.get('content-type') ?? '').startsWith(INDEX_MEDIA_TYPE)) {
    const answered = await readJson(response, `the referrers of ${digest}`);
    if (!isManifest(answered))
      throw new RegistryError(`${http.registry} answered the referrers of ${digest} in ${name} with something that is not an OCI index`);
    index = answered;
  } else {
    await response.body?.cancel();
    if (response.ok || response.status === 404 || response.status === 400 || response.status === 405)
      index = (await pullManifest(http, name, fallbackTag(digest)))?.manifest;
    else throw await http.failure(`listing the referrers of ${digest} in ${name}`, response);
  }
  return (index?.manifests ?? []).filter((descriptor) => descriptor?.artifactType === artifactType);
}

/** Adds a referrer to the fallback tag's index, for a registry that did not read the subject itself. */
export async function addFallbackReferrer(http: RegistryHttp, name: string, subject: string, referrer: Descriptor): Promise<void> {
  const tag = fallbackTag(subject);
  const existing = (await pullManifest(http, name, tag))?.manifest;
  const manifests = (existing?.manifests ?? []).filter((descriptor) => descriptor.digest !== referrer.digest);
  await pushManifest(http, name, tag, { schemaVersion: 2, mediaType: INDEX_MEDIA_TYPE, manifests: [...manifests, referrer] });
}
