/**
 * The layout of dist/ (docs/authoring.md, "dist/"), for the build that writes it and the server that reads
 * it. Kept apart from the build so that loading bundles pulls in nothing of the build.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { compareReleases, isRelease } from '../release/release.js';
import type { Bundle } from './bundle.js';
import { FileReadError, readRegularFileSync } from '../util/regular-file.js';
import { BundleLoadError, MAX_DIST_FILE_BYTES } from './bundle-file.js';

export const INDEX_FILE = 'index.json';
export const BUNDLE_FILE = 'bundle.json';
export const INDEX_FORMAT = 'facetform.index/v1';
/** The editor schemas, derived from every bundle (src/editor-schemas/editor-schemas.ts); never a repository's folder. */
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
  try {
    return readIndexFile(distDir);
  } catch {
    return undefined;
  }
}

/** dist/index.json, checked: a list of { path, digest } inside dist/, or a BundleLoadError saying what is wrong. */
export function readIndexFile(distDir: string): DistIndex {
  const indexFile = path.join(distDir, INDEX_FILE);
  if (existsSync(distDir) && !statSync(distDir).isDirectory())
    throw new BundleLoadError(distDir, 'is not a folder of bundles: name the folder the build writes (dist/)');
  if (!existsSync(indexFile)) {
    throw new BundleLoadError(indexFile, 'not found; build the bundles first with `npm run build`');
  }
  let index: DistIndex;
  try {
    index = JSON.parse(readRegularFileSync(indexFile, MAX_DIST_FILE_BYTES).toString('utf8')) as DistIndex;
  } catch (error) {
    if (error instanceof FileReadError) throw new BundleLoadError(indexFile, error.reason);
    throw new BundleLoadError(indexFile, `cannot be read as JSON (${(error as Error).message})`);
  }
  const entries = (index as { bundles?: unknown } | null)?.bundles;
  if (
    !Array.isArray(entries) ||
    !entries.every((entry) => typeof entry?.path === 'string' && typeof entry?.digest === 'string' && !entry.path.split('/').includes('..'))
  ) {
    throw new BundleLoadError(
      indexFile,
      'is not a facetform index: it needs a bundles list of { path, digest } inside dist/; rebuild it with `npm run build`',
    );
  }
  return index;
}

/** The index's entry for a bundle first built on `date`. */
export function indexEntryOf(bundle: Bundle, date: string): IndexEntry {
  const { name, vendor, apiVersion, release } = bundle.repository;
  return {
    repository: name,
    vendor,
    apiVersion,
    release,
    date,
    digest: bundle.digest,
    path: path.posix.join(name, apiVersion, release, BUNDLE_FILE),
    collections: bundle.collections.map((collection) => collection.name),
  };
}

/** Where one release's bundle lies in dist/. */
export function bundleFileOf(distDir: string, repository: string, apiVersion: string, release: string): string {
  return path.join(distDir, repository, apiVersion, release, BUNDLE_FILE);
}

/** The release `release` follows among those dist/ holds (`released`, oldest first): what an upgrade starts from. */
export function releaseBefore(released: readonly string[], release: string): string | undefined {
  return released.filter((entry) => compareReleases(entry, release) < 0).at(-1);
}

/** The releases of one repository's API version that dist/ holds, oldest first. */
export function releasesInDist(distDir: string, repository: string, apiVersion: string): string[] {
  const dir = path.join(distDir, repository, apiVersion);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((release) => isRelease(release) && existsSync(bundleFileOf(distDir, repository, apiVersion, release)))
    .sort(compareReleases);
}
