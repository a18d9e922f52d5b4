/**
 * The OCI distribution API, as much of it as pushing and pulling a release needs: blobs (chunked
 * uploads), manifests, tags, the catalog and referrers, with basic and token authentication. No
 * client library on npm is kept up for this, so the protocol lives here: RegistryClient is
 * what callers hold, one per registry, and each of its calls is one part of the protocol in a module
 * of its own (registry-http.ts, registry-auth.ts, blob-transfer.ts, manifest-transfer.ts,
 * listings.ts, referrers.ts).
 */
import { hasBlob, pullBlob, pushBlob } from './blob-transfer.js';
import { catalog, tags } from './listings.js';
import { type Descriptor, type Manifest, sha256Digest } from './manifest.js';
import { manifestDigest, pullManifest, pushManifest } from './manifest-transfer.js';
import { addFallbackReferrer, referrers } from './referrers.js';
import { RegistryHttp, type RegistryOptions } from './registry-http.js';

export type { Credentials } from './registry-auth.js';
export type { RegistryOptions } from './registry-http.js';
export { type Descriptor, fallbackTag, INDEX_MEDIA_TYPE, type Manifest, MANIFEST_MEDIA_TYPE, sha256Digest } from './manifest.js';
export { isOutage, RegistryError, RegistryOverrunError, RegistryUnreachableError } from './registry-errors.js';

/** One registry: each method is the function of the same name, in its module, on this registry's HTTP. */
export class RegistryClient {
  readonly base: string;
  private readonly http: RegistryHttp;

  constructor(
    readonly registry: string,
    options: RegistryOptions = {},
  ) {
    this.http = new RegistryHttp(registry, options);
    this.base = this.http.base;
  }

  hasBlob(name: string, digest: string): Promise<boolean> {
    return hasBlob(this.http, name, digest);
  }

  pushBlob(name: string, bytes: Uint8Array, digest = sha256Digest(bytes)): Promise<void> {
    return pushBlob(this.http, name, bytes, digest);
  }

  pullBlob(name: string, digest: string, maxBytes: number): Promise<Buffer> {
    return pullBlob(this.http, name, digest, maxBytes);
  }

  pushManifest(name: string, reference: string, manifest: Manifest): Promise<{ digest: string; subjectProcessed: boolean }> {
    return pushManifest(this.http, name, reference, manifest);
  }

  pullManifest(name: string, reference: string): Promise<{ manifest: Manifest; digest: string; bytes: Buffer } | undefined> {
    return pullManifest(this.http, name, reference);
  }

  manifestDigest(name: string, reference: string): Promise<string | undefined> {
    return manifestDigest(this.http, name, reference);
  }

  tags(name: string): Promise<string[]> {
    return tags(this.http, name);
  }

  catalog(): Promise<string[]> {
    return catalog(this.http);
  }

  referrers(name: string, digest: string, artifactType: string): Promise<Descriptor[]> {
    return referrers(this.http, name, digest, artifactType);
  }

  addFallbackReferrer(name: string, subject: string, referrer: Descriptor): Promise<void> {
    return addFallbackReferrer(this.http, name, subject, referrer);
  }
}
