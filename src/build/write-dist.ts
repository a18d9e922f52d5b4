/**
 * Writing bundles to dist/ (layout in README.md, "dist/"):
 *
 *   dist/index.json                                      every bundle in dist/, with digests
 *   dist/<repository>/<apiVersion>/<release>/bundle.json
 *   dist/<repository>/<apiVersion>/<release>/schemas/<collection>.schema.json
 *   dist/<repository>/<apiVersion>/<release>/types/<collection>.d.ts
 *
 * Output is a pure function of the repositories, so building twice changes no byte. A release
 * already in dist/ with other content is never overwritten (CONTRACT §9).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Bundle } from '../bundle/bundle.js';
import { BUNDLE_FILE, INDEX_FILE, INDEX_FORMAT, readIndex, type DistIndex, type IndexEntry } from '../bundle/dist-layout.js';
import { typeDeclarations } from './declarations.js';

export class ReleaseConflictError extends Error {}

export function bundleDir(bundle: Bundle): string {
  return path.join(bundle.repository.name, bundle.repository.apiVersion, bundle.repository.release);
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** Writes a file only when its bytes differ, so an unchanged build touches nothing. */
function writeIfChanged(file: string, text: string): void {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

export function nextReleases(release: string): string {
  const [major, minor, patch] = release.split(/[.-]/).map(Number) as [number, number, number];
  return `${major}.${minor}.${patch + 1} (a fix) or ${major}.${minor + 1}.0 (an addition)`;
}

export function checkNotReleasedDifferently(outDir: string, bundle: Bundle): void {
  const file = path.join(outDir, bundleDir(bundle), BUNDLE_FILE);
  if (!existsSync(file)) return;
  let existing: Bundle | undefined;
  try {
    existing = JSON.parse(readFileSync(file, 'utf8')) as Bundle;
  } catch {
    existing = undefined;
  }
  if (existing?.digest !== bundle.digest) {
    const { name, release } = bundle.repository;
    throw new ReleaseConflictError(
      `${name} release ${release} is already built (${file}) with other content; a released version never changes: set "release" in repos/${name}/repository.json to ${nextReleases(release)}`,
    );
  }
}

export async function writeDist(outDir: string, bundles: Bundle[], sources: Record<string, string>): Promise<DistIndex> {
  for (const bundle of bundles) checkNotReleasedDifferently(outDir, bundle);
  for (const bundle of bundles) {
    const dir = path.join(outDir, bundleDir(bundle));
    writeIfChanged(path.join(dir, BUNDLE_FILE), json(bundle));
    for (const collection of bundle.collections) {
      writeIfChanged(path.join(dir, 'schemas', `${collection.name}.schema.json`), json(collection.schema));
      writeIfChanged(path.join(dir, 'types', `${collection.name}.d.ts`), await typeDeclarations(bundle.repository, collection));
    }
  }
  const previous = readIndex(outDir);
  const index: DistIndex = {
    format: INDEX_FORMAT,
    sources: Object.fromEntries(Object.entries({ ...previous?.sources, ...sources }).sort(([a], [b]) => (a < b ? -1 : 1))),
    bundles: scanBundles(outDir),
  };
  writeIfChanged(path.join(outDir, INDEX_FILE), json(index));
  return index;
}

/** Every bundle under dist/, in a stable order. */
function scanBundles(outDir: string): IndexEntry[] {
  const entries: IndexEntry[] = [];
  const dirs = (dir: string) => (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort() : []);
  for (const repository of dirs(outDir)) {
    for (const apiVersion of dirs(path.join(outDir, repository))) {
      for (const release of dirs(path.join(outDir, repository, apiVersion))) {
        const relative = path.posix.join(repository, apiVersion, release, BUNDLE_FILE);
        const file = path.join(outDir, relative);
        if (!existsSync(file)) continue;
        const bundle = JSON.parse(readFileSync(file, 'utf8')) as Bundle;
        entries.push({
          repository: bundle.repository.name,
          vendor: bundle.repository.vendor,
          apiVersion: bundle.repository.apiVersion,
          release: bundle.repository.release,
          digest: bundle.digest,
          path: relative,
          collections: bundle.collections.map((collection) => collection.name),
        });
      }
    }
  }
  return entries;
}
