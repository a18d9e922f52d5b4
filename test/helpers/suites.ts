/**
 * The test files an author's change in repos/ can turn red: those that read repos/, dist/ or
 * test/golden, themselves or through the test helpers they import. The others test the code alone
 * (placeholder parsing, CEL, problem documents) and cannot see a new section, so the author recipe
 * (test/author-recipe.test.ts) leaves them to `npm test`, which runs them anyway.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'glob';

/** What reading the project's repositories or bundles looks like in a test's source. */
const READS_REPOSITORIES = /\b(SHIPPED_REPOS|ROOT)\b|['"`/](repos|dist|golden)['"`/]/;

/** The test files (relative to `project`) that read repositories, directly or through an imported test module. */
export function suitesReadingRepositories(project: string, exclude: readonly string[] = []): string[] {
  const testDir = path.join(project, 'test');
  const reads = (file: string, seen: Set<string>): boolean => {
    if (seen.has(file)) return false;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    if (READS_REPOSITORIES.test(text)) return true;
    return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].some(([, specifier]) => {
      const target = path.resolve(path.dirname(file), specifier!).replace(/\.js$/, '.ts');
      return target.startsWith(testDir + path.sep) && existsSync(target) && reads(target, seen);
    });
  };
  return globSync('test/**/*.test.ts', { cwd: project, ignore: [...exclude] })
    .sort()
    .filter((file) => reads(path.join(project, file), new Set()));
}
