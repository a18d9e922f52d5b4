/**
 * Which bundles the server serves: BUNDLES_DIR as it is, or the project's dist/, built from repos/
 * first when it is missing or older than the repositories.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { INDEX_FILE, readIndex } from '../bundle/dist-layout.js';
import { loadBundles } from '../bundle/load.js';
import { BundleRegistry } from '../bundle/registry.js';
import { REPOSITORY_FILE } from '../repository/layout.js';
import { sourceDigest } from '../repository/source-digest.js';

export class BuildFailedError extends Error {}

/** Repositories whose sources differ from what dist/ was built from. */
export function staleRepositories(reposDir: string, distDir: string): string[] {
  const index = readIndex(distDir);
  const repositories = readdirSync(reposDir).filter((entry) => existsSync(path.join(reposDir, entry, REPOSITORY_FILE)));
  if (index === undefined) return repositories;
  return repositories.filter((name) => index.sources[name] !== sourceDigest(path.join(reposDir, name)));
}

/** Builds repos/ into dist/ when needed; returns what it did, for the start message. */
export async function ensureBuilt(reposDir: string, distDir: string): Promise<string | undefined> {
  if (!existsSync(reposDir)) return undefined;
  const stale = staleRepositories(reposDir, distDir);
  if (stale.length === 0) return undefined;
  // The build (TypeScript compiler, prettier, …) loads only when a build is needed.
  const { compileRepositories } = await import('../compiler/compile.js');
  const { writeDist, distWriteFailure } = await import('../compiler/write-dist.js');
  const { ReleaseConflictError, CompatibilityError } = await import('../upgrade/release-gate.js');
  const { report, bundles, sources } = await compileRepositories(reposDir);
  if (report.errorCount > 0) throw new BuildFailedError(`${report.format()}the build of ${reposDir} failed; fix the errors above`);
  try {
    await writeDist(distDir, bundles, Object.fromEntries(sources.map((source) => [source.name, sourceDigest(source.dir)])));
  } catch (error) {
    if (error instanceof ReleaseConflictError || error instanceof CompatibilityError)
      throw new BuildFailedError(`the build of ${reposDir} failed: ${error.message}`);
    // A read-only or full dist/ at start: which file, not a stack.
    const failure = distWriteFailure(error, distDir);
    if (failure !== undefined)
      throw new BuildFailedError(
        `the build of ${reposDir} into ${distDir} failed: ${failure}; set BUNDLES_DIR to bundles built elsewhere, or make ${distDir} writable`,
      );
    throw error;
  }
  return `built ${stale.join(', ')} into ${distDir}`;
}

/** The bundles of `distDir`; `emptyAllowed` (a server following a registry) takes a folder without an index as holding none. */
export function loadRegistry(distDir: string, emptyAllowed = false): BundleRegistry {
  if (emptyAllowed && !existsSync(path.join(distDir, INDEX_FILE))) return new BundleRegistry([]);
  return new BundleRegistry(loadBundles(distDir));
}
