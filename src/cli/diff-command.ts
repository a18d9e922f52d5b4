/**
 * `facetform diff`: what callers will get from a release, for review. Renders the evidence of an
 * earlier release (its examples and generated requests) with it and with the working tree of
 * repos/ (or a built release), and prints each difference with its class; for the working tree,
 * every change with its level and the build's verdict too. Exits 1 where the build would refuse the
 * release (for built releases: where a difference breaks callers). What changed comes first: a
 * repository whose working tree is a release already built, byte for byte, is one line at the end,
 * unless it is named or --from is given.
 */
import { existsSync, readdirSync } from 'node:fs';
import type { Bundle } from '../bundle/bundle.js';
import { bundleFileOf, readIndex, releaseBefore, releasesInDist } from '../bundle/dist-layout.js';
import { BundleLoadError, readBundleFile } from '../bundle/bundle-file.js';
import { compareReleases } from '../release/release.js';
import type { Verdict } from '../upgrade/compatibility.js';
import { type CompileResult, compileRepositories } from '../compiler/compile.js';
import { formatComparison, formatVerdict, outputLevel } from '../upgrade/diff-report.js';
import { judgeNewRelease, releaseConflict } from '../upgrade/release-gate.js';
import { compareRendered, type RenderedComparison } from '../upgrade/rendered-comparison.js';
import { CliError, type Io, parseCommandArgs } from './io.js';
import { reposFolder } from './repos-folder.js';

export async function runDiff(args: string[], io: Io): Promise<number> {
  const { values: options, positionals: named } = parseCommandArgs(
    args,
    {
      from: { type: 'string' },
      to: { type: 'string' },
      repos: { type: 'string', default: 'repos' },
      bundles: { type: 'string', default: 'dist' },
      'api-version': { type: 'string' },
      format: { type: 'string', default: 'text' },
    },
    true,
  );
  const positionals: string[] = named;
  if (options.format !== 'text' && options.format !== 'json') throw new CliError(`--format must be text or json, not "${options.format}"`);
  const dist = options.bundles!;
  const index = readIndex(dist);
  if (index === undefined) throw new CliError(`${dist}/index.json not found: diff compares with the releases a build wrote there`);

  // Names are checked before the (slow) compile: those dist/ has, and those repos/ is adding.
  const known = new Set([
    ...index.bundles.map((entry) => entry.repository),
    ...(options.to === undefined && existsSync(options.repos!) ? readdirSync(options.repos!) : []),
  ]);
  const unknown = positionals.find((name) => !known.has(name));
  if (unknown !== undefined) throw new CliError(`no repository "${unknown}"; there are ${[...known].sort().join(', ')}`);
  const tree = options.to === undefined ? await workingTree(options.repos!, io) : undefined;
  if (tree === null) return 1;
  const targets = tree?.bundles ?? builtReleases(dist, options.to!, options['api-version']);
  const missing = positionals.find((name) => !targets.some((target) => target.repository.name === name));
  if (missing !== undefined) throw new CliError(`${missing} has no release ${options.to ?? 'in ' + options.repos} to compare`);
  const results: DiffResult[] = [];
  for (const target of targets) {
    const { name, apiVersion, release } = target.repository;
    if (positionals.length > 0 && !positionals.includes(name)) continue;
    const released = releasesInDist(dist, name, apiVersion);
    const from = options.from ?? releaseBefore(released, release);
    // A repository nobody touched is its last build again: one line, after what changed, unless it was asked for.
    if (tree !== undefined && positionals.length === 0 && options.from === undefined && alreadyBuilt(dist, target)) {
      results.push({ unchanged: { repository: name, apiVersion, release, ...(from === undefined ? {} : { from }) } });
      continue;
    }
    if (from === undefined) {
      io.err(`${name} ${apiVersion} ${release}: no earlier release in ${dist} to compare with\n`);
      continue;
    }
    if (!released.includes(from))
      throw new CliError(`${name} ${apiVersion} has no release ${from} in ${dist}; it has ${released.join(', ') || 'none'}`);
    if (compareReleases(from, release) >= 0)
      throw new CliError(`${name}: --from ${from} is not a release before ${release}, the one compared with it`);
    const previous = readBundle(bundleFileOf(dist, name, apiVersion, from));
    // The working tree is judged as the build would judge it; a built release was judged when it was built.
    const { comparison, verdict } =
      tree === undefined
        ? { comparison: compareRendered(previous, target), verdict: undefined }
        : judgeNewRelease(previous, target, tree.compiled.get(target));
    // A release already built with other content is refused by the build whatever its level: so here.
    if (verdict !== undefined && verdict.ok) {
      const conflict = releaseConflict(dist, target);
      if (conflict !== undefined) Object.assign(verdict, { ok: false, message: conflict });
    }
    results.push({ comparison, verdict });
  }
  // What changed first: the untouched repositories come last, whatever their order in repos/.
  results.sort((a, b) => Number('unchanged' in a) - Number('unchanged' in b));
  io.out(options.format === 'json' ? JSON.stringify(results, null, 2) + '\n' : results.map(formatResult).join(''));
  const refused = results.some(
    (result) =>
      !('unchanged' in result) && (result.verdict === undefined ? outputLevel(result.comparison) === 'breaking' : !result.verdict.ok),
  );
  return refused ? 1 : 0;
}

/** One repository's part of the output: its comparison (and the build's verdict), or the line of one left as built. */
type DiffResult =
  | { comparison: RenderedComparison; verdict?: Verdict }
  | { unchanged: { repository: string; apiVersion: string; release: string; from?: string } };

function formatResult(result: DiffResult): string {
  if ('unchanged' in result) {
    const { repository, apiVersion, release, from } = result.unchanged;
    const against = from === undefined ? '' : ` (facetform diff ${repository} shows it against ${from})`;
    return `${repository} ${apiVersion} ${release}: unchanged since its build${against}\n`;
  }
  const { comparison, verdict } = result;
  return formatComparison(comparison) + (verdict === undefined ? '' : formatVerdict(verdict, comparison));
}

/** Whether the working tree's `bundle` is a release dist/ already holds, byte for byte: nothing for the build to release. */
function alreadyBuilt(dist: string, bundle: Bundle): boolean {
  const { name, apiVersion, release } = bundle.repository;
  return existsSync(bundleFileOf(dist, name, apiVersion, release)) && releaseConflict(dist, bundle) === undefined;
}

/** The repositories as they are now, compiled in memory: what the next build would release; null after lint errors. */
async function workingTree(repos: string, io: Io): Promise<Pick<CompileResult, 'bundles' | 'compiled'> | null> {
  const { report, bundles, compiled } = await compileRepositories(
    reposFolder(repos, 'give the repositories with --repos DIR, or compare built releases with --to RELEASE'),
  );
  if (report.errorCount === 0) return { bundles, compiled };
  io.err(report.format());
  io.err('diff needs repositories without lint errors: fix the errors above\n');
  return null;
}

/** Every repository's built release `release` (of `apiVersion`, which must be given where several API versions have it). */
function builtReleases(dist: string, release: string, apiVersion: string | undefined): Bundle[] {
  const entries = (readIndex(dist)?.bundles ?? []).filter(
    (entry) => entry.release === release && (apiVersion === undefined || entry.apiVersion === apiVersion),
  );
  if (entries.length === 0)
    throw new CliError(`no repository in ${dist} has a release ${release}${apiVersion === undefined ? '' : ` of ${apiVersion}`}`);
  const repositories = entries.map((entry) => entry.repository);
  const ambiguous = repositories.find((name, index) => repositories.indexOf(name) !== index);
  if (ambiguous !== undefined)
    throw new CliError(`${ambiguous} has a release ${release} in several API versions: say which with --api-version`);
  return entries.map((entry) => readBundle(bundleFileOf(dist, entry.repository, entry.apiVersion, entry.release)));
}

function readBundle(file: string): Bundle {
  try {
    return readBundleFile(file);
  } catch (error) {
    if (error instanceof BundleLoadError) throw new CliError(error.message);
    throw error;
  }
}
