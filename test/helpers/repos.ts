/** Temporary copies of repositories, so a test can plant one file and lint or build the copy. */
import { cpSync, existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SHIPPED_REPOS = path.join(ROOT, 'repos');
export const DEMO_REPOS = path.join(ROOT, 'test/fixtures/repos');

// Test files share a worker and its modules (vitest.config.ts: isolate false): a folder made for one
// file goes when that file ends (test/helpers/setup.ts); one shared by the worker's files, when the run
// ends (test/helpers/global-setup.ts).
const madeForFile: string[] = [];

export function tempDir(prefix = 'facetform-', lifetime: 'file' | 'run' = 'file'): string {
  const dir = mkdtempSync(path.join(process.env.FACETFORM_TEST_TMP ?? tmpdir(), prefix));
  if (lifetime === 'file') madeForFile.push(dir);
  return dir;
}

/** Removes the folders made for the test file that just ended. */
export function removeFileTempDirs(): void {
  for (const dir of madeForFile.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A copy of `source` with `files` (relative path → text) written over it. */
export function repoCopy(source: string, files: Record<string, string> = {}): string {
  const dir = tempDir();
  cpSync(source, dir, { recursive: true });
  for (const [relative, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    writeFileSync(path.join(dir, relative), text);
  }
  return dir;
}

export function removeFrom(dir: string, relative: string): void {
  rmSync(path.join(dir, relative), { recursive: true });
}

/** The release a repository of `repos` declares: what a build writes, and what the server answers by default. */
export function declaredRelease(repository: string, repos = SHIPPED_REPOS): string {
  return (JSON.parse(readFileSync(path.join(repos, repository, 'repository.json'), 'utf8')) as { release: string }).release;
}

/** The committed releases of a repository's v1 in dist/, oldest first, from dist/index.json. */
export function committedReleases(repository: string): string[] {
  const index = JSON.parse(readFileSync(path.join(ROOT, 'dist/index.json'), 'utf8')) as {
    bundles: Array<{ repository: string; apiVersion: string; release: string }>;
  };
  return index.bundles.filter((entry) => entry.repository === repository && entry.apiVersion === 'v1').map((entry) => entry.release);
}

/** The repositories of `repos` as a build sees them: name, declared release, collection folders (those with a collection.json, sorted). */
export function repositoriesIn(repos = SHIPPED_REPOS): Array<{ name: string; release: string; collections: string[] }> {
  return readdirSync(repos, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({
      name,
      release: declaredRelease(name, repos),
      // A collection is a folder with a collection.json, as the build sees it; crds/ and stray folders are not.
      collections: readdirSync(path.join(repos, name), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(path.join(repos, name, entry.name, 'collection.json')))
        .map((entry) => entry.name)
        .sort(),
    }));
}

export interface ShippedCollection {
  repository: string;
  collection: string;
  variable: string;
  /** The request of its examples/seed.json. */
  seed: { facets?: string[]; values: Record<string, any>; globalvars?: Record<string, string> };
}

/** The shipped collection that renders `kind`, found in repos/ rather than named. */
export function collectionOfKind(kind: string, repos = SHIPPED_REPOS): ShippedCollection {
  for (const { name, collections } of repositoriesIn(repos)) {
    for (const collection of collections) {
      const dir = path.join(repos, name, collection);
      const declaration = JSON.parse(readFileSync(path.join(dir, 'collection.json'), 'utf8')) as { kind: string; variable: string };
      if (declaration.kind !== kind) continue;
      const { $description: _, ...seed } = JSON.parse(readFileSync(path.join(dir, 'examples/seed.json'), 'utf8'));
      return { repository: name, collection, variable: declaration.variable, seed };
    }
  }
  throw new Error(`no collection in ${repos} renders a ${kind}`);
}

/** The facets (besides master) of the sections of a shipped collection that write `member` (a dotted path, e.g. spec.nodeAffinity). */
export function facetsWriting(found: ShippedCollection, member: string, repos = SHIPPED_REPOS): string[] {
  const dir = path.join(repos, found.repository, found.collection, 'sections');
  const writes = (section: Record<string, unknown>) => {
    let node: unknown = section;
    for (const segment of member.split('.')) {
      if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return false;
      node = (node as Record<string, unknown>)[segment];
    }
    return true;
  };
  return readdirSync(dir)
    .map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { facets: string[] } & Record<string, unknown>)
    .filter(writes)
    .flatMap((section) => section.facets.filter((facet) => facet !== 'master'));
}

export interface ShippedExample {
  repository: string;
  collection: string;
  /** The file name without `.json`. */
  name: string;
  /** The exec request body, without the authors' `$description`. */
  request: Record<string, unknown>;
}

/** Every example of every collection of `repos`, read from the examples/ folders. */
export function examplesIn(repos = SHIPPED_REPOS): ShippedExample[] {
  return repositoriesIn(repos).flatMap(({ name: repository, collections }) =>
    collections.flatMap((collection) => {
      const dir = path.join(repos, repository, collection, 'examples');
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((file) => file.endsWith('.json'))
        .sort()
        .map((file) => {
          const { $description: _, ...request } = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Record<string, unknown>;
          return { repository, collection, name: file.slice(0, -'.json'.length), request };
        });
    }),
  );
}

/**
 * The first of `candidates` (a top-level member of the kind, with a value for it) that no section of
 * the collection writes and whose lowercase name no section file has: what a test can add as a new
 * section, whichever sections authors have added since.
 */
export function unwrittenMember(
  found: ShippedCollection,
  candidates: Array<[member: string, value: unknown]>,
  repos = SHIPPED_REPOS,
): { member: string; section: string; value: unknown } {
  const dir = path.join(repos, found.repository, found.collection, 'sections');
  const files = readdirSync(dir);
  const written = new Set(files.flatMap((file) => Object.keys(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as object)));
  const free = candidates.find(([member]) => !written.has(member) && !files.includes(`${member.toLowerCase()}.json`));
  if (free === undefined)
    throw new Error(
      `sections of ${found.collection} write every one of ${candidates.map(([member]) => member).join(', ')}: name another member for the test to add`,
    );
  return { member: free[0], section: free[0].toLowerCase(), value: free[1] };
}
