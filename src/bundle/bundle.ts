/**
 * A bundle: one release of one repository, compiled and validated (CONTRACT §9). It holds every
 * collection with its sections, generated input schema and examples, and a sha256 digest of its
 * canonical content (RFC 8785 JSON canonicalization) so that a changed byte is always noticed.
 */
import type { CustomResourceSchema } from '../crd/crd-check.js';
import type { Schema } from '../kubernetes/kind-schema.js';
import { sha256Digest } from '../util/digest.js';
import type { JsonObject } from '../util/json.js';
import { canonicalJson } from './canonical-json.js';

export { canonicalJson };

export const BUNDLE_FORMAT = 'facetform.bundle/v1';

export interface RepositoryIdentity {
  name: string;
  vendor: string;
  apiVersion: string;
  release: string;
  description: string;
}

export interface BundleSection {
  name: string;
  facets: string[];
  description: string;
  /** The rendered members, as authored, placeholders unparsed. */
  content: JsonObject;
  /** JSON Pointers into the manifest of the placeholders that must have a value. */
  required: string[];
}

export interface BundleExample {
  name: string;
  description: string;
  /** An exec request body. */
  request: JsonObject;
  /** What the request renders to; the golden answer. */
  manifest: JsonObject;
}

export interface BundleCollection {
  name: string;
  variable: string;
  kind: string;
  apiVersion: string;
  description: string;
  facets: string[];
  sections: BundleSection[];
  /** JSON Schema of one input object, values[<id>]. */
  schema: Schema;
  examples: BundleExample[];
  /** For a kind a CRD of the repository defines: its schema, against which every answer is checked. */
  customResource?: CustomResourceSchema;
}

export interface Bundle {
  format: typeof BUNDLE_FORMAT;
  repository: RepositoryIdentity;
  collections: BundleCollection[];
  /** `sha256:<hex>` of the canonical JSON of everything else in the bundle. */
  digest: string;
}

export function digestOf(bundle: Omit<Bundle, 'digest'> & { digest?: string }): string {
  const { digest: _ignored, ...content } = bundle;
  return sha256Digest(canonicalJson(content));
}

export function sealBundle(content: Omit<Bundle, 'digest'>): Bundle {
  return { ...content, digest: digestOf(content) };
}
