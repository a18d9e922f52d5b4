/**
 * The loaded bundles by address: vendor → repository → API version → release. Within an API
 * version the highest release serves unless a caller names one.
 */
import type { LoadedBundle, LoadedCollection } from './load.js';

export function compareReleases(a: string, b: string): number {
  const parse = (release: string) => {
    const [core, pre] = release.split('-', 2) as [string, string | undefined];
    return { parts: core.split('.').map(Number), pre };
  };
  const left = parse(a);
  const right = parse(b);
  for (let index = 0; index < 3; index++) {
    const difference = (left.parts[index] ?? 0) - (right.parts[index] ?? 0);
    if (difference !== 0) return difference;
  }
  if (left.pre === right.pre) return 0;
  if (left.pre === undefined) return 1; // 1.0.0 > 1.0.0-rc.1
  if (right.pre === undefined) return -1;
  return left.pre < right.pre ? -1 : 1;
}

export type Lookup =
  | { found: LoadedCollection }
  | { missing: 'vendor' | 'repository' | 'apiVersion' | 'release' | 'collection'; name: string; known: string[] };

export class BundleRegistry {
  /** vendor → repository → apiVersion → bundles, highest release first. */
  private readonly tree = new Map<string, Map<string, Map<string, LoadedBundle[]>>>();

  constructor(readonly bundles: LoadedBundle[]) {
    for (const loaded of bundles) {
      const { vendor, name, apiVersion } = loaded.bundle.repository;
      if (!this.tree.has(vendor)) this.tree.set(vendor, new Map());
      const repositories = this.tree.get(vendor)!;
      if (!repositories.has(name)) repositories.set(name, new Map());
      const versions = repositories.get(name)!;
      if (!versions.has(apiVersion)) versions.set(apiVersion, []);
      versions.get(apiVersion)!.push(loaded);
    }
    for (const repositories of this.tree.values())
      for (const versions of repositories.values())
        for (const list of versions.values()) list.sort((a, b) => compareReleases(b.bundle.repository.release, a.bundle.repository.release));
  }

  vendors(): string[] {
    return [...this.tree.keys()].sort();
  }

  repositories(vendor: string): Map<string, Map<string, LoadedBundle[]>> | undefined {
    return this.tree.get(vendor);
  }

  /** The bundle of one API version of a repository: the named release, or the highest. */
  bundle(vendor: string, repository: string, apiVersion: string, release?: string): LoadedBundle | Exclude<Lookup, { found: unknown }> {
    const repositories = this.tree.get(vendor);
    if (repositories === undefined) return { missing: 'vendor', name: vendor, known: this.vendors() };
    const versions = repositories.get(repository);
    if (versions === undefined) return { missing: 'repository', name: repository, known: [...repositories.keys()].sort() };
    const releases = versions.get(apiVersion);
    if (releases === undefined) return { missing: 'apiVersion', name: apiVersion, known: [...versions.keys()].sort() };
    if (release === undefined) return releases[0]!;
    const named = releases.find((loaded) => loaded.bundle.repository.release === release);
    return named ?? { missing: 'release', name: release, known: releases.map((loaded) => loaded.bundle.repository.release) };
  }

  lookup(vendor: string, repository: string, apiVersion: string, collection: string, release?: string): Lookup {
    const bundle = this.bundle(vendor, repository, apiVersion, release);
    if ('missing' in bundle) return bundle;
    const found = bundle.collections.get(collection);
    if (found === undefined) return { missing: 'collection', name: collection, known: [...bundle.collections.keys()].sort() };
    return { found };
  }
}
