/**
 * The loaded bundles by address: vendor → repository → API version → release. Within an API
 * version the latest release serves unless a caller names one.
 */
import { compareReleases, latestRelease } from '../release/release.js';
import type { Problem } from '../request/problems.js';
import type { LoadedBundle, LoadedCollection } from './load.js';

/** The bundle served when a caller names no release, of one API version's bundles (release/release.ts decides). */
const latestBundle = (bundles: readonly LoadedBundle[]): LoadedBundle | undefined =>
  latestRelease(bundles, (loaded) => loaded.bundle.repository.release);

export type Lookup =
  | { found: LoadedCollection }
  | { missing: 'vendor' | 'repository' | 'apiVersion' | 'release' | 'collection'; name: string; known: string[] };

/** A lookup that found nothing, as a problem at `pointer`: what is not there, and what is. */
export const lookupProblem = (pointer: string, { missing, name, known }: { missing: string; name: string; known: string[] }): Problem => ({
  pointer,
  detail: `no ${missing} "${name}"; known: ${known.join(', ') || 'none'}`,
});

export class BundleRegistry {
  /** vendor → repository → apiVersion → bundles, highest release first. */
  private readonly tree = new Map<string, Map<string, Map<string, LoadedBundle[]>>>();
  /** Each API version's bundles → the one served when a caller names no release: decided at load, not per request. */
  private readonly latestOf = new Map<readonly LoadedBundle[], LoadedBundle>();

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
        for (const list of versions.values()) {
          list.sort((a, b) => compareReleases(b.bundle.repository.release, a.bundle.repository.release));
          this.latestOf.set(list, latestBundle(list)!);
        }
  }

  /** The bundle served when a caller names no release, of one API version's bundles as `repositories` gives them. */
  latest(releases: readonly LoadedBundle[]): LoadedBundle | undefined {
    return this.latestOf.get(releases) ?? latestBundle(releases);
  }

  /** How a repository describes itself: as the latest release of its first API version does. */
  description(versions: ReadonlyMap<string, readonly LoadedBundle[]>): string {
    return this.latest([...versions.values()][0]!)!.bundle.repository.description;
  }

  vendors(): string[] {
    return [...this.tree.keys()].sort();
  }

  repositories(vendor: string): Map<string, Map<string, LoadedBundle[]>> | undefined {
    return this.tree.get(vendor);
  }

  /** The vendors that have a repository of this name, sorted: a caller that names no vendor needs exactly one. */
  vendorsOf(repository: string): string[] {
    return this.vendors().filter((vendor) => this.tree.get(vendor)!.has(repository));
  }

  /** Every repository name, each once, sorted: what a caller may name. */
  repositoryNames(): string[] {
    return [...new Set(this.bundles.map((loaded) => loaded.bundle.repository.name))].sort();
  }

  /** The bundle of one API version of a repository: the named release, or the highest. */
  bundle(vendor: string, repository: string, apiVersion: string, release?: string): LoadedBundle | Exclude<Lookup, { found: unknown }> {
    const repositories = this.tree.get(vendor);
    if (repositories === undefined) return { missing: 'vendor', name: vendor, known: this.vendors() };
    const versions = repositories.get(repository);
    if (versions === undefined) return { missing: 'repository', name: repository, known: [...repositories.keys()].sort() };
    const releases = versions.get(apiVersion);
    if (releases === undefined) return { missing: 'apiVersion', name: apiVersion, known: [...versions.keys()].sort() };
    if (release === undefined) return this.latestOf.get(releases)!;
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
