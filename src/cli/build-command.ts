import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { BundleLoadError } from '../bundle/bundle-file.js';
import { compileRepositories } from '../compiler/compile.js';
import { distWriteFailure, writeDist } from '../compiler/write-dist.js';
import { sourceDigest } from '../repository/source-digest.js';
import { CompatibilityError, ReleaseConflictError } from '../upgrade/release-gate.js';
import { CliError, type Io, parseCommandArgs } from './io.js';
import { reposFolder } from './repos-folder.js';

export async function runBuild(args: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(args, { repos: { type: 'string', default: 'repos' }, out: { type: 'string', default: 'dist' } });
  const started = performance.now();
  const { report, bundles, sources, compiled } = await compileRepositories(reposFolder(values.repos!));
  if (report.errorCount > 0) {
    io.err(report.format());
    io.err('build failed: fix the errors above; nothing was written\n');
    return 1;
  }
  if (report.warningCount > 0) io.err(report.format());
  try {
    const digests = Object.fromEntries(sources.map((source) => [source.name, sourceDigest(source.dir)]));
    const { notes } = await writeDist(values.out!, bundles, digests, compiled);
    for (const note of notes) io.out(`${note}\n`);
  } catch (error) {
    if (error instanceof ReleaseConflictError || error instanceof CompatibilityError) {
      io.err(`build failed: ${error.message}\nnothing was written\n`);
      return 1;
    }
    // A bundle already in dist/ that is unreadable or changed after its build: dist/ must be restored first.
    if (error instanceof BundleLoadError) {
      io.err(`build failed: ${error.message}\n`);
      return 1;
    }
    const failure = distWriteFailure(error, values.out!);
    if (failure === undefined) throw error;
    io.err(`build failed: ${failure}\n`);
    return 1;
  }
  const collections = bundles.reduce((count, bundle) => count + bundle.collections.length, 0);
  for (const bundle of bundles) {
    const { name, apiVersion, release } = bundle.repository;
    io.out(`${name} ${apiVersion} ${release}: ${bundle.collections.length} collections, ${bundle.digest.slice(0, 19)}…\n`);
  }
  io.out(
    `built ${bundles.length} bundles, ${collections} collections into ${path.resolve(values.out!)} in ${Math.round(performance.now() - started)} ms\n`,
  );
  return 0;
}
