/**
 * The layout of dist/ (README.md, "dist/"), for the build that writes it and the server that reads
 * it. Kept apart from the build so that loading bundles pulls in nothing of the build.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compareReleases, isRelease } from '../release/release.js';

export const INDEX_FILE = 'index.json';
export const BUNDLE_FILE = 'bundle.json';
export const INDEX_FORMAT = 'facetform.index/v1';
/** The editor schemas, derived from every bundle (src/schema/editor-schemas.ts); never a repository's folder. */
export const SCHEMAS_DIR = 'schemas';

export interface IndexEntry {
  repository: string;
  vendor: string;
  apiVersion: string;
  release: string;
  digest: string;
  /** Relative to dist/. */
  path: string;
  collections: string[];
  /** Day the release was first built, YYYY-MM-DD. */
  date: string;
}

export interface DistIndex {
  format: typeof INDEX_FORMAT;
  /** Digest of the repositories' source files each bundle was last built from. */
  sources: Record<string, string>;
  bundles: IndexEntry[];
}

export function readIndex(distDir: string): DistIndex | undefined {
  const file = path.join(distDir, INDEX_FILE);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as DistIndex;
  } catch {
    return undefined;
  }
}

/** Where one release's bundle lies in dist/. */
export function bundleFileOf(distDir: string, repository: string, apiVersion: string, release: string): string {
  return path.join(distDir, repository, apiVersion, release, BUNDLE_FILE);
}

/** The releases of one repository's API version that dist/ holds, oldest first. */
export function releasesInDist(distDir: string, repository: string, apiVersion: string): string[] {
  const dir = path.join(distDir, repository, apiVersion);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((release) => isRelease(release) && existsSync(bundleFileOf(distDir, repository, apiVersion, release)))
    .sort(compareReleases);
}
