// What the console reads of the server's discovery answers (src/server/routes/discovery.ts builds them).

import type { Problem } from '../request/problems.js';
import type { JsonObject } from '../util/json.js';

export interface VendorList {
  vendors: Array<{ name: string; href: string }>;
}

export interface RepositoryList {
  repositories: Array<{ name: string; apiVersions: Array<{ apiVersion: string; latest: string; href: string }> }>;
}

export interface CollectionList {
  collections: Array<{ name: string; kind: string; href: string }>;
}

/** A request as the collection's examples give it; the console sends `{ facets, values, globalvars }`. */
export interface ExampleRequest {
  facets?: string[];
  values?: JsonObject;
  globalvars?: Record<string, string>;
}

export interface SectionSummary {
  name: string;
  facets: string[];
  description: string;
  /** The input paths its placeholders read (`spec.ports`); an older server may not say. */
  inputs?: string[];
}

export interface CollectionDocument {
  name: string;
  kind: string;
  variable: string;
  description: string;
  facets: string[];
  sections: SectionSummary[];
  examples: Array<{ name: string; description?: string; request: ExampleRequest }>;
  links: { exec: string; schema: string; types: string };
}

/** An RFC 9457 problem+json answer, with the pointers of the request members it is about. */
export interface ProblemAnswer {
  title: string;
  detail: string;
  errors?: Problem[];
}
