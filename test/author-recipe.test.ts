/**
 * The "Adding one section" recipe (docs/authoring.md), applied with the real tools to a copy of the project in
 * every collection at once, and then the suites of `npm test` that read repositories, run in that
 * copy. An author's pull request must not turn tests red that are not about it: tests derive
 * releases, paths, collections and examples from repos/ and dist/ (test/helpers/repos.ts) instead of naming them.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { suitesReadingRepositories } from './helpers/suites.js';
import { declaredRelease, repositoriesIn, ROOT, roomsForASection, type RoomForASection, tempDir } from './helpers/repos.js';

const run = promisify(execFile);

/** The environment of a command an author types: no trace of the vitest run this test is part of. */
function authorEnv(drop: string[] = []): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || ['TEST', 'NODE_ENV', ...drop].includes(name)) delete env[name];
  return env;
}

/** Runs a command in `cwd`; never throws, so a failure can be shown with its output. */
async function sh(
  cwd: string,
  command: string,
  args: string[],
  env = authorEnv(),
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? String(error),
    };
  }
}

/** A copy of the project's working tree as git sees it (tracked and untracked files, not ignored ones), node_modules linked, lib/ compiled and packed. */
async function projectCopy(): Promise<string> {
  const dir = tempDir('facetform-author-');
  const files = (
    await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 })
  ).stdout.split('\0');
  for (const file of files) {
    // A file deleted in the working tree but still in the index is not part of it.
    if (file === '' || !existsSync(path.join(ROOT, file))) continue;
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(dir, file));
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  // `npm run compile`: tsc into lib/, then the CLI packed into lib/packed/ (the copy has no lib/ yet).
  const compile = await sh(dir, process.execPath, ['scripts/compile.mjs']);
  expect(compile.code, `compile in the copy:\n${compile.stdout}${compile.stderr}`).toBe(0);
  return dir;
}

/** The names of the failed tests of a vitest JSON report, each with the start of its first message. */
function failedTests(reportFile: string): string[] {
  if (!existsSync(reportFile)) return ['(no report written)'];
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
    testResults: Array<{
      name: string;
      status: string;
      message?: string;
      assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }>;
    }>;
  };
  return report.testResults.flatMap((file) => {
    const where = path.relative(path.dirname(reportFile), file.name);
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    if (failed.length === 0 && file.status === 'failed') return [`${where}: ${file.message?.split('\n')[0] ?? 'failed to run'}`];
    return failed.map(
      (test) => `${where} > ${test.fullName}\n      ${(test.failureMessages[0] ?? '').split('\n').slice(0, 4).join('\n      ')}`,
    );
  });
}

describe('the recipe for adding one section', () => {
  it(
    'builds a minor release of each repository with a new section in every collection, and leaves the suites that read repos/ and dist/ green',
    async () => {
      const started = Date.now();
      const project = await projectCopy();
      const facetform = (...args: string[]) => sh(project, process.execPath, ['bin/facetform.js', ...args]);
      const repos = path.join(project, 'repos');

      // 1. In every collection found in repos/, a new section under a new facet (every member of the
      // shipped kinds has a section, so the feature is an annotation merged into metadata), and an
      // example that selects it.
      const rooms = roomsForASection(repos);
      expect(rooms.map((room) => `${room.found.repository}/${room.found.collection}`)).toEqual(
        repositoriesIn(repos).flatMap(({ name, collections }) => collections.map((collection) => `${name}/${collection}`)),
      );
      const kinds = new Map<RoomForASection, string>();
      for (const room of rooms) {
        const collectionDir = path.join(repos, room.found.repository, room.found.collection);
        writeFileSync(path.join(collectionDir, `sections/${room.section}.json`), JSON.stringify(room.content, null, 2) + '\n');
        const example = path.join(collectionDir, `examples/${room.section}.json`);
        expect(existsSync(example), example).toBe(false);
        writeFileSync(example, JSON.stringify({ $description: `The seed, managed by facetform.`, ...room.example }, null, 2) + '\n');
        kinds.set(room, (JSON.parse(readFileSync(path.join(collectionDir, 'collection.json'), 'utf8')) as { kind: string }).kind);
      }
      const repositories = [...new Set(rooms.map((room) => room.found.repository))];

      // 2. npm run lint.
      const lint = await facetform('lint');
      expect(lint.code, lint.stderr).toBe(0);
      expect(lint.stdout).toBe('0 errors, 0 warnings\n');

      // 3. npx facetform diff, per repository: no request of the previous release renders differently, and
      // each new section is an addition, which the release still declared cannot carry.
      const released = new Map(repositories.map((repository) => [repository, declaredRelease(repository, repos)]));
      const advisedByDiff = new Map<string, string>();
      for (const repository of repositories) {
        const diff = await facetform('diff', repository);
        expect(diff.code, diff.stderr).toBe(1);
        for (const room of rooms.filter((r) => r.found.repository === repository)) {
          const { collection } = room.found;
          expect(diff.stdout).toMatch(
            new RegExp(`\n {2}${collection} \\(${kinds.get(room)}\\): \\d+ requests?, none renders differently\n`),
          );
          expect(diff.stdout).toMatch(new RegExp(`minor +adds section ${room.section} to ${collection}\n`));
        }
        // Refused as the build refuses it: an addition the declared release cannot carry, or a release dist/
        // already holds with other content (the declared release is the latest built); either names the next.
        const escaped = released.get(repository)!.replaceAll('.', '\\.');
        const verdict = new RegExp(
          `verdict: REFUSED: .*(?:release as (\\S+) \\(after \\S+\\), not ${escaped}|to \\S+ \\(a fix\\) or (\\S+) \\(an addition\\))\n`,
        ).exec(diff.stdout);
        expect(verdict, diff.stdout).not.toBeNull();
        advisedByDiff.set(repository, verdict![1] ?? verdict![2]!);
      }

      // 4. Bump each release as the build says: unchanged, it refuses and names the fix and the addition.
      const refused = await facetform('build');
      expect(refused.code).toBe(1);
      for (const repository of repositories) {
        const advice = new RegExp(
          `set "release" in repos/${repository}/repository\\.json to (\\S+) \\(a fix\\) or (\\S+) \\(an addition\\)`,
        ).exec(refused.stderr);
        expect(advice, refused.stderr).not.toBeNull();
        const [major, minor] = released.get(repository)!.split('.').map(Number) as [number, number];
        expect(advice![2]).toBe(`${major}.${minor + 1}.0`);
        expect(advisedByDiff.get(repository)).toBe(advice![2]);
        const declarationFile = path.join(repos, repository, 'repository.json');
        writeFileSync(
          declarationFile,
          JSON.stringify({ ...JSON.parse(readFileSync(declarationFile, 'utf8')), release: advice![2] }, null, 2) + '\n',
        );
      }

      // 5. npm run build: each minor release is accepted and written beside the earlier ones.
      const build = await facetform('build');
      expect(build.code, build.stderr).toBe(0);
      for (const repository of repositories) {
        const next = declaredRelease(repository, repos);
        const added = rooms.filter((room) => room.found.repository === repository);
        expect(build.stdout).toContain(`${repository} v1 ${next} after ${released.get(repository)}: `);
        for (const room of added) {
          expect(build.stdout).toContain(`adds facet ${room.facet} to ${room.found.collection}`);
          expect(build.stdout).toContain(`adds section ${room.section} to ${room.found.collection}`);
        }
        expect(existsSync(path.join(project, 'dist', repository, 'v1', next, 'bundle.json'))).toBe(true);
      }

      // 5b. npm run readme:collections: the table of what each facet writes (docs/collections.md), from the new dist/.
      const tables = await sh(project, process.execPath, [
        path.join(project, 'node_modules/tsx/dist/cli.mjs'),
        'scripts/readme-collections.ts',
      ]);
      expect(tables.code, tables.stdout + tables.stderr).toBe(0);
      const tablesPage = readFileSync(path.join(project, 'docs/collections.md'), 'utf8');
      for (const room of rooms) expect(tablesPage).toContain(`\`${room.facet}\` | ${room.section} |`);

      // 6. npx vitest run test/golden.test.ts writes the golden manifests of the new examples (as on an author's machine, not in CI).
      const vitest = path.join(project, 'node_modules/vitest/vitest.mjs');
      const golden = await sh(project, process.execPath, [vitest, 'run', 'test/golden.test.ts'], authorEnv(['CI']));
      expect(golden.code, golden.stdout + golden.stderr).toBe(0);
      for (const room of rooms) {
        const dir = path.join(project, 'test/golden', room.found.repository, room.found.collection);
        // The seed's manifest, with the annotation.
        const seedGolden = JSON.parse(readFileSync(path.join(dir, 'seed.json'), 'utf8'));
        const annotated = {
          ...seedGolden,
          metadata: {
            ...seedGolden.metadata,
            annotations: { ...seedGolden.metadata.annotations, [room.annotation[0]]: room.annotation[1] },
          },
        };
        expect(JSON.parse(readFileSync(path.join(dir, `${room.section}.json`), 'utf8'))).toEqual(annotated);
      }
      console.log(`author recipe: copy, lint, diff, build and golden files in ${((Date.now() - started) / 1000).toFixed(0)} s`);

      // 7. The suites of `npm test` that read repos/, dist/ or test/golden, in the copy, as its pull
      // request's CI would run them: only those can see the new sections, and the rest (a seventh of
      // the files) run in `npm test` anyway, so the recipe stays minutes shorter in CI.
      const suitesStarted = Date.now();
      const reportFile = path.join(project, 'vitest-report.json');
      const selected = suitesReadingRepositories(project, ['test/author-recipe.test.ts']);
      expect(selected).toContain('test/golden.test.ts');
      const suites = await sh(project, process.execPath, [
        vitest,
        'run',
        '--reporter=dot',
        '--reporter=json',
        `--outputFile.json=${reportFile}`,
        ...selected,
      ]);
      console.log(
        `author recipe: the ${selected.length} suites that read repositories, in the copy, in ${((Date.now() - suitesStarted) / 1000).toFixed(0)} s`,
      );
      const output = (suites.stdout + suites.stderr).slice(-3000);
      expect(suites.code, `tests that fail in the copy after the recipe:\n  ${failedTests(reportFile).join('\n  ')}\n\n${output}`).toBe(0);
    },
    20 * 60_000,
  );
});
