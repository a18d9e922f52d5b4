/**
 * What an OCI manifest or index is, as far as this client reads one: its descriptors, media types and
 * digests, and the shape a registry's answer must have before anything in it is followed.
 */

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  artifactType?: string;
  annotations?: Record<string, string>;
}

export interface Manifest {
  schemaVersion: 2;
  mediaType: string;
  artifactType?: string;
  config?: Descriptor;
  layers?: Descriptor[];
  manifests?: Descriptor[];
  subject?: Descriptor;
  annotations?: Record<string, string>;
}

export const MANIFEST_MEDIA_TYPE = 'application/vnd.oci.image.manifest.v1+json';
export const INDEX_MEDIA_TYPE = 'application/vnd.oci.image.index.v1+json';

export { sha256Digest } from '../util/digest.js';

/** A descriptor we can follow: a media type, a sha256 digest (the only one checked here) and a size. */
const isDescriptor = (value: unknown): value is Descriptor => {
  const candidate = value as Partial<Descriptor> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.mediaType === 'string' &&
    typeof candidate.digest === 'string' &&
    /^sha256:[0-9a-f]{64}$/.test(candidate.digest) &&
    Number.isSafeInteger(candidate.size) &&
    candidate.size! >= 0 &&
    (candidate.annotations === undefined || (typeof candidate.annotations === 'object' && candidate.annotations !== null))
  );
};

/** An OCI manifest or index as far as this client reads one: every descriptor it names is one it can follow. */
export function isManifest(value: unknown): value is Manifest {
  const candidate = value as Partial<Manifest> | null;
  if (typeof candidate !== 'object' || candidate === null || candidate.schemaVersion !== 2) return false;
  const list = (descriptors: unknown) => descriptors === undefined || (Array.isArray(descriptors) && descriptors.every(isDescriptor));
  const one = (descriptor: unknown) => descriptor === undefined || isDescriptor(descriptor);
  const annotations = candidate.annotations;
  return (
    list(candidate.layers) &&
    list(candidate.manifests) &&
    one(candidate.config) &&
    one(candidate.subject) &&
    (annotations === undefined || (typeof annotations === 'object' && annotations !== null && !Array.isArray(annotations)))
  );
}

/** The OCI 1.1 referrers tag schema: `sha256:<hex>` → `sha256-<hex>`. */
export const fallbackTag = (digest: string): string => digest.replace(':', '-');
