/**
 * Adding one release, fetched from elsewhere (a registry), to a folder of bundles: its files go in
 * under a hidden name and are renamed into place, then the index is replaced whole, so that a server
 * reloading the folder at any moment sees either the old set or the new one, never half a release.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { compareReleases } from '../release/release.js';
import type { Bundle } from './bundle.js';
import { BundleLoadError, readBundleFile } from './bundle-file.js';
import { bundleFileOf, type DistIndex, INDEX_FILE, INDEX_FORMAT, indexEntryOf, readIndexFile } from './dist-layout.js';

/** Files by path relative to the release's folder (bundle.json, schemas/…, types/…). */
export type ReleaseFiles = ReadonlyMap<string, Uint8Array>;

/** A release's file path is kept inside its folder: plain names joined by "/", none hidden, none "..". */
export const isReleaseFilePath = (relative: string): boolean =>
  relative.split('/').every((part) => /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(part) && part !== '..');

/**
 * Two paths of a release of which one is inside the other (`zz` and `zz/inner`): no folder holds a file
 * and a folder of one name, so such a release cannot be written. The first such pair, outer path first.
 */
function clashingPaths(paths: Iterable<string>): [string, string] | undefined {
  const all = new Set(paths);
  for (const file of all) {
    const parts = file.split('/');
    for (let depth = 1; depth < parts.length; depth++) {
      const outer = parts.slice(0, depth).join('/');
      if (all.has(outer)) return [outer, file];
    }
  }
  return undefined;
}

/** Why `paths` (a pulled release's layer titles, or the files added) cannot be the files of a release folder; undefined when they can. */
export function releasePathsProblem(paths: readonly unknown[]): string | undefined {
  const seen = new Set<string>();
  for (const relative of paths) {
    if (typeof relative !== 'string' || !isReleaseFilePath(relative))
      return `${JSON.stringify(relative ?? null)} is not a file path inside a release folder`;
    if (seen.has(relative)) return `${JSON.stringify(relative)} is there twice`;
    seen.add(relative);
  }
  const clash = clashingPaths(seen);
  if (clash !== undefined)
    return `${JSON.stringify(clash[0])} and ${JSON.stringify(clash[1])} collide: ${clash[0]} cannot be both a file and the folder of ${clash[1]}`;
  return undefined;
}

/**
 * Writes `bundle`'s release into `distDir` and lists it in the index. A release already there with the
 * same digest is left as it is ('present'); one with another digest is refused: releases are immutable.
 */
export function addRelease(distDir: string, bundle: Bundle, files: ReleaseFiles, date: string): 'added' | 'present' {
  const { name, apiVersion, release } = bundle.repository;
  const bundleFile = bundleFileOf(distDir, name, apiVersion, release);
  const folder = path.dirname(bundleFile);
  if (existsSync(bundleFile)) {
    const held = readBundleFile(bundleFile);
    if (held.digest !== bundle.digest)
      throw new BundleLoadError(
        bundleFile,
        `already holds release ${release} with digest ${held.digest}, not ${bundle.digest}; a release is immutable`,
      );
  } else {
    const problem = releasePathsProblem([...files.keys()]);
    if (problem !== undefined) throw new BundleLoadError(folder, `cannot hold the release's files: ${problem}`);
    const staging = path.join(path.dirname(folder), `.${release}.${process.pid}.${randomBytes(4).toString('hex')}.partial`);
    try {
      for (const [relative, bytes] of files) {
        const file = path.join(staging, ...relative.split('/'));
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, bytes);
      }
      renameSync(staging, folder);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  const index: DistIndex = existsSync(path.join(distDir, INDEX_FILE))
    ? readIndexFile(distDir)
    : { format: INDEX_FORMAT, sources: {}, bundles: [] };
  const entry = indexEntryOf(bundle, date);
  if (index.bundles.some((listed) => listed.path === entry.path && listed.digest === entry.digest)) return 'present';
  // The build's order (write-dist.ts): by folder name, then release.
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const bundles = [...index.bundles.filter((listed) => listed.path !== entry.path), entry].sort(
    (a, b) => byName(a.repository, b.repository) || byName(a.apiVersion, b.apiVersion) || compareReleases(a.release, b.release),
  );
  // A temporary file renamed over the index: a reader sees the old list or the new one, never half of it.
  writeFileAtomic.sync(path.join(distDir, INDEX_FILE), JSON.stringify({ ...index, bundles }, null, 2) + '\n');
  return 'added';
}
