/**
 * The loaded bundles by address: vendor → repository → API version → release. Within an API
 * version the highest release serves unless a caller names one.
 */
import type { LoadedBundle, LoadedCollection } from './load.js';

/** A release version: semver 2.0, prerelease allowed, no build metadata. */
export const SEMVER_PATTERN = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** Semver precedence: major, minor, patch, then a release after its prereleases, identifiers compared one by one. */
export function compareReleases(a: string, b: string): number {
  const parse = (release: string) => {
    const dash = release.indexOf('-');
    const core = dash === -1 ? release : release.slice(0, dash);
    return { parts: core.split('.').map(Number), pre: dash === -1 ? undefined : release.slice(dash + 1).split('.') };
  };
  const left = parse(a);
  const right = parse(b);
  for (let index = 0; index < 3; index++) {
    const difference = (left.parts[index] ?? 0) - (right.parts[index] ?? 0);
    if (difference !== 0) return difference;
  }
  if (left.pre === undefined || right.pre === undefined) return left.pre === right.pre ? 0 : left.pre === undefined ? 1 : -1;
  for (let index = 0; index < Math.max(left.pre.length, right.pre.length); index++) {
    const [x, y] = [left.pre[index], right.pre[index]];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    if (x === y) continue;
    const [xNumber, yNumber] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (xNumber && yNumber) return Number(x) - Number(y);
    if (xNumber !== yNumber) return xNumber ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

export const isPrerelease = (release: string) => release.includes('-');

/** The release served when a caller names none, of releases highest first: the highest, a prerelease only when there is nothing else. */
export function defaultRelease<T>(highestFirst: readonly T[], releaseOf: (entry: T) => string): T | undefined {
  return highestFirst.find((entry) => !isPrerelease(releaseOf(entry))) ?? highestFirst[0];
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
    if (release === undefined) return defaultRelease(releases, (loaded) => loaded.bundle.repository.release)!;
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
