/** Temporary copies of repositories, so a test can plant one file and lint or build the copy. */
import { cpSync, existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseTemplate } from '../../src/template/placeholder.js';
import { isPlainObject } from '../../src/util/json.js';
import { holds } from './kind-members.js';

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

/** A collection of `repos` with its declaration and the request of its examples/seed.json. */
export function shippedCollection(repository: string, collection: string, repos = SHIPPED_REPOS): ShippedCollection & { kind: string } {
  const dir = path.join(repos, repository, collection);
  const declaration = JSON.parse(readFileSync(path.join(dir, 'collection.json'), 'utf8')) as { kind: string; variable: string };
  const { $description: _, ...seed } = JSON.parse(readFileSync(path.join(dir, 'examples/seed.json'), 'utf8'));
  return { repository, collection, variable: declaration.variable, kind: declaration.kind, seed };
}

/** The shipped collection that renders `kind`, found in repos/ rather than named. */
export function collectionOfKind(kind: string, repos = SHIPPED_REPOS): ShippedCollection {
  for (const { name, collections } of repositoriesIn(repos)) {
    for (const collection of collections) {
      const found = shippedCollection(name, collection, repos);
      if (found.kind === kind) return found;
    }
  }
  throw new Error(`no collection in ${repos} renders a ${kind}`);
}

/** The facets (besides master) of the sections of a shipped collection that write `member` (a dotted path, e.g. spec.nodeAffinity). */
export function facetsWriting(found: ShippedCollection, member: string, repos = SHIPPED_REPOS): string[] {
  return sectionsOf(found, repos)
    .filter(({ section }) => holds(section, member))
    .flatMap(({ section }) => section.facets.filter((facet) => facet !== 'master'));
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

/** The sections of a collection of `repos`, each with its file name and parsed content, in file-name order. */
export function sectionsOf(
  found: Pick<ShippedCollection, 'repository' | 'collection'>,
  repos = SHIPPED_REPOS,
): Array<{ file: string; name: string; section: { facets: string[] } & Record<string, unknown> }> {
  const dir = path.join(repos, found.repository, found.collection, 'sections');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ file, name: file.slice(0, -'.json'.length), section: JSON.parse(readFileSync(path.join(dir, file), 'utf8')) }));
}

/** Every facet of a collection of `repos` (master included), sorted: what discovery lists and a request may name. */
export function facetsOf(found: Pick<ShippedCollection, 'repository' | 'collection'>, repos = SHIPPED_REPOS): string[] {
  return [...new Set(sectionsOf(found, repos).flatMap(({ section }) => section.facets))].sort();
}

/** A name of the form `${stem}` or `${stem}-<n>` that `taken` does not hold. */
export function freshName(stem: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  for (let n = 1; ; n++) {
    const name = n === 1 ? stem : `${stem}-${n}`;
    if (!used.has(name)) return name;
  }
}

/**
 * Files to write over a copy of `repos` so that exactly one section of the collection writes `member`
 * (a dotted path, e.g. spec.sessionAffinity) with `value` as its text, whichever sections authors have
 * added since: the section that writes it now gets the value instead (its other members kept), or,
 * when none does, a new section under a new facet writes it. The examples that render the changed
 * section are dropped (`remove`), so only the planted value can be refused. `file` is the section's
 * path relative to `repos` and `line` the line of the member in the text written.
 */
export function plantedMember(
  found: Pick<ShippedCollection, 'repository' | 'collection'>,
  member: string,
  value: unknown,
  repos = SHIPPED_REPOS,
): { files: Record<string, string>; remove: string[]; file: string; line: number } {
  const segments = member.split('.');
  const sections = sectionsOf(found, repos);
  const written = (section: Record<string, unknown>) => {
    let node: unknown = section;
    for (const segment of segments) {
      if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return false;
      node = (node as Record<string, unknown>)[segment];
    }
    return true;
  };
  const writer = sections.find(({ section }) => written(section));
  if (writer?.section.facets.includes('master'))
    throw new Error(`${member} is written by master section ${writer.file}: plant another member`);
  const facets = writer?.section.facets ?? [
    `addon:${freshName(
      'planted',
      facetsOf(found, repos).map((facet) => facet.slice('addon:'.length)),
    )}`,
  ];
  const name =
    writer?.name ??
    freshName(
      'planted',
      sections.map((section) => section.name),
    );
  // The member first in each object on its path, so it is the first line naming its last segment.
  const withMember = (rest: unknown, depth: number): unknown => {
    if (depth === segments.length) return value;
    const others = typeof rest === 'object' && rest !== null && !Array.isArray(rest) ? { ...(rest as Record<string, unknown>) } : {};
    const inner = withMember(others[segments[depth]!], depth + 1);
    delete others[segments[depth]!];
    return { [segments[depth]!]: inner, ...others };
  };
  const { facets: _, ...content } = writer?.section ?? {};
  const text = `${JSON.stringify({ facets, ...(withMember(content, 0) as object) }, null, 2)}\n`;
  const line = text.split('\n').findIndex((row) => row.includes(`"${segments.at(-1)}":`)) + 1;
  const collection = path.join(found.repository, found.collection);
  const remove = writer
    ? examplesIn(repos)
        .filter((example) => example.repository === found.repository && example.collection === found.collection)
        .filter((example) => ((example.request.facets as string[] | undefined) ?? []).some((facet) => facets.includes(facet)))
        .map((example) => path.join(collection, 'examples', `${example.name}.json`))
    : [];
  const file = path.join(collection, 'sections', `${name}.json`);
  return { files: { [file]: text }, remove, file, line };
}

/** A new section an author can add to a shipped collection, its facet, and an example that selects it. */
export interface RoomForASection {
  found: ShippedCollection;
  /** The section's name (its file name without `.json`), also its facet's name after `addon:`. */
  section: string;
  facet: string;
  /** The section file's content. */
  content: Record<string, unknown>;
  /** The annotation it writes, and its value. */
  annotation: [key: string, value: string];
  /** An example request selecting it: the collection's seed with the facet added. */
  example: Record<string, unknown>;
}

/**
 * The section each collection of `repos` can take as an addition, whichever sections authors have
 * added: every member of the shipped kinds has a section (test/kind-coverage.test.ts), so what an
 * author adds is a feature that writes an annotation into metadata, which the master fills with a
 * placeholder or writes as an object (both merge with it, docs/authoring.md "Merge"). A collection whose
 * sections write metadata or its annotations otherwise has none.
 */
export function roomsForASection(repos = SHIPPED_REPOS): RoomForASection[] {
  // A well-formed one: lint refuses the others before the merge could meet them.
  const isWhole = (value: unknown) => typeof value === 'string' && parseTemplate(value).kind === 'whole';
  const mergesWithAnObject = (value: unknown) => value === undefined || isPlainObject(value) || isWhole(value);
  return repositoriesIn(repos).flatMap(({ name, collections }) =>
    collections.flatMap((collection) => {
      const found = { repository: name, collection };
      const sections = sectionsOf(found, repos);
      const metadata = sections.map(({ section }) => section.metadata);
      if (!metadata.every(mergesWithAnObject) || !metadata.every((m) => !isPlainObject(m) || mergesWithAnObject(m.annotations))) return [];
      const shipped = shippedCollection(name, collection, repos);
      let section = 'managedby';
      for (let n = 2; sections.some((s) => s.name === section); n++) section = `managedby${n}`;
      const facet = `addon:${section}`;
      const annotation: [string, string] = [`example.com/${section}`, 'facetform'];
      return [
        {
          found: shipped,
          section,
          facet,
          annotation,
          content: {
            $description: `Marks the ${shipped.kind} as managed by facetform.`,
            facets: [facet],
            metadata: { annotations: { [annotation[0]]: annotation[1] } },
          },
          example: { ...shipped.seed, facets: [...(shipped.seed.facets ?? []), facet] },
        },
      ];
    }),
  );
}

/** The first collection of `repos` that can take a new section (roomsForASection); throws when none can. */
export function roomForASection(repos = SHIPPED_REPOS): RoomForASection {
  const [room] = roomsForASection(repos);
  if (room === undefined)
    throw new Error(
      `no collection of ${repos} can take a new section: each writes metadata otherwise than as an object or one placeholder`,
    );
  return room;
}
