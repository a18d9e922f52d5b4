/**
 * The release gate (CONTRACT §9): whether the releases the repositories declare may be built into
 * dist/. A release already built never changes, and a new one is judged against the release of its
 * API version before it, by its inputs (compatibility.ts) and by what it renders
 * (rendered-comparison.ts). A refusal says which release to declare instead.
 */
import { existsSync } from 'node:fs';
import type { Bundle } from '../bundle/bundle.js';
import { BundleLoadError, readBundleFile } from '../bundle/bundle-file.js';
import { bundleFileOf, releaseBefore, releasesInDist } from '../bundle/dist-layout.js';
import type { Executable } from '../exec/execute.js';
import { nextRelease } from '../release/release.js';
import { judgeRelease, type KubernetesInputs, type Verdict } from './compatibility.js';
import { formatComparison } from './diff-report.js';
import { compareRendered, type RenderedComparison, renderedChanges } from './rendered-comparison.js';

export class ReleaseConflictError extends Error {}

export class CompatibilityError extends Error {}

/** What the build compiled of a new release, handed over so that judging it parses none of its sections again. */
export interface CompiledRelease {
  /** Each collection's render plan, input validator and kind check, by name. */
  collections: ReadonlyMap<string, Executable>;
  /** Each collection's input schema from the Kubernetes types alone, by name (compatibility.ts). */
  kubernetesInputs: KubernetesInputs;
}

function nextReleases(release: string): string {
  return `${nextRelease(release, 'patch')} (a fix) or ${nextRelease(release, 'minor')} (an addition)`;
}

const bundleFileIn = (outDir: string, { repository }: Bundle) =>
  bundleFileOf(outDir, repository.name, repository.apiVersion, repository.release);

/** Why dist/ refuses `bundle`: its release is built there with other content, or unreadable; undefined when it is not refused. */
export function releaseConflict(outDir: string, bundle: Bundle): string | undefined {
  const file = bundleFileIn(outDir, bundle);
  if (!existsSync(file)) return undefined;
  let existing: Bundle;
  try {
    existing = readBundleFile(file);
  } catch (error) {
    // Unreadable, or changed after its build: what was released is to be restored, not replaced.
    if (!(error instanceof BundleLoadError)) throw error;
    return `${error.message}; a released version never changes: restore the file as it was built (e.g. from git)`;
  }
  if (existing.digest === bundle.digest) return undefined;
  const { name, release } = bundle.repository;
  return (
    `${name} release ${release} is already built (${file}) with other ` +
    `content; a released version never changes: set "release" in repos/${name}/repository.json ` +
    `to ${nextReleases(release)}`
  );
}

/** The release of the same repository and API version that `bundle` follows, if dist/ has one. */
function previousRelease(outDir: string, bundle: Bundle): Bundle | undefined {
  const { name, apiVersion, release } = bundle.repository;
  const earlier = releaseBefore(releasesInDist(outDir, name, apiVersion), release);
  return earlier === undefined ? undefined : readBundleFile(bundleFileOf(outDir, name, apiVersion, earlier));
}

/** `bundle` judged as the release that follows `previous`: what it renders differently, and the verdict on that and its inputs. */
export function judgeNewRelease(
  previous: Bundle,
  bundle: Bundle,
  compiled?: CompiledRelease,
): { comparison: RenderedComparison; verdict: Verdict } {
  const comparison = compareRendered(previous, bundle, compiled?.collections);
  return { comparison, verdict: judgeRelease(previous, bundle, compiled?.kubernetesInputs, renderedChanges(comparison)) };
}

/**
 * Checks every bundle against dist/ before anything is written: released versions never change,
 * and a new release is judged against the one before it. Returns what each new release changes;
 * throws with every repository's refusal at once, so an author fixes them in one go.
 */
export function checkReleases(outDir: string, bundles: Bundle[], compiled?: ReadonlyMap<Bundle, CompiledRelease>): string[] {
  const conflicts: string[] = [];
  const refusals: string[] = [];
  const notes: string[] = [];
  for (const bundle of bundles) {
    const conflict = releaseConflict(outDir, bundle);
    if (conflict !== undefined) {
      conflicts.push(conflict);
      continue;
    }
    if (existsSync(bundleFileIn(outDir, bundle))) continue; // already released, unchanged
    const previous = previousRelease(outDir, bundle);
    if (previous === undefined) continue;
    const { comparison, verdict } = judgeNewRelease(previous, bundle, compiled?.get(bundle));
    // A refusal shows the reviewer's view of the output too, as `facetform diff` prints it.
    (verdict.ok ? notes : refusals).push(verdict.ok ? verdict.message : `${verdict.message}\n${formatComparison(comparison).trimEnd()}`);
  }
  if (conflicts.length > 0) throw new ReleaseConflictError([...conflicts, ...refusals].join('\n'));
  if (refusals.length > 0) throw new CompatibilityError(refusals.join('\n'));
  return notes;
}
