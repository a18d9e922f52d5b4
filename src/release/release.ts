/**
 * Releases: a repository's version, semver 2.0 without build metadata (CONTRACT §9). What is a
 * release, their order, the release after one, and which release serves when a caller names none
 * are decided here, by the semver package; the build, the lint rules, dist/ and the server ask.
 */
// One function module each: the semver package's index loads all of its ~50 modules (30 ms of a server's start).
import SemVer from 'semver/classes/semver.js';
import compare from 'semver/functions/compare.js';
import prerelease from 'semver/functions/prerelease.js';
import valid from 'semver/functions/valid.js';

const NUMBER = '(0|[1-9]\\d*)';
const IDENTIFIER = '(?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*)';
/**
 * A release as a regular expression, for JSON Schema and the lint rule: semver 2.0's grammar, no
 * leading zero in a numeric identifier (`1.0.0-rc.01` is not a release), no "v" and no build metadata.
 * `isRelease` is the rule; test/release-rule.test.ts holds the two together.
 */
export const RELEASE_PATTERN = new RegExp(`^${NUMBER}\\.${NUMBER}\\.${NUMBER}(?:-${IDENTIFIER}(?:\\.${IDENTIFIER})*)?$`);

/** Whether `text` is a release: a version semver's strict parse accepts and prints back unchanged. */
export function isRelease(text: string): boolean {
  return valid(text) === text;
}

/** Semver precedence (a release after its prereleases); both must be releases. Negative, 0 or positive, for sort. */
export function compareReleases(a: string, b: string): number {
  return compare(a, b);
}

export function isPrerelease(release: string): boolean {
  return prerelease(release) !== null;
}

/**
 * The smallest release after `previous` that a change needs: the next patch for a fix, the next
 * minor for an addition. After a prerelease too the core is raised: `1.2.0-rc.1` is followed by
 * `1.2.1` or `1.3.0`.
 */
export function nextRelease(previous: string, change: 'patch' | 'minor'): string {
  const { major, minor, patch } = new SemVer(previous);
  return change === 'patch' ? `${major}.${minor}.${patch + 1}` : `${major}.${minor + 1}.0`;
}

/**
 * The release served when a caller names none: the highest that is not a prerelease, a prerelease
 * only when there is nothing else (docs/releases.md, "Several versions served"). Of entries in any order; undefined for none.
 */
export function latestRelease<T>(entries: readonly T[], releaseOf: (entry: T) => string): T | undefined {
  const above = (entry: T, best: T | undefined) => best === undefined || compareReleases(releaseOf(entry), releaseOf(best)) > 0;
  const highest = (candidates: readonly T[]) =>
    candidates.reduce<T | undefined>((best, entry) => (above(entry, best) ? entry : best), undefined);
  return highest(entries.filter((entry) => !isPrerelease(releaseOf(entry)))) ?? highest(entries);
}
