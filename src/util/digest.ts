/**
 * The one way facetform writes a digest: `sha256:<hex>`, the OCI form, for bundles, sources,
 * previews, ETags and API keys alike, so that every digest reads and compares the same.
 */
import { createHash } from 'node:crypto';

/** `sha256:<hex>` of bytes, or of a string's UTF-8. */
export const sha256Digest = (data: string | Uint8Array): string => `sha256:${createHash('sha256').update(data).digest('hex')}`;
