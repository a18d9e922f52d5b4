/**
 * Writing bundles to dist/ (layout in docs/authoring.md, "dist/"):
 *
 *   dist/index.json                                      every bundle in dist/, with digests
 *   dist/<repository>/<apiVersion>/<release>/bundle.json
 *   dist/<repository>/<apiVersion>/<release>/schemas/<collection>.schema.json
 *   dist/<repository>/<apiVersion>/<release>/types/<collection>.d.ts
 *   dist/schemas/…                                        editor schemas of every bundle in dist/
 *
 * Output is a pure function of the repositories, so building twice changes no byte. Nothing is
 * written unless the release gate (src/upgrade/release-gate.ts) lets every release be built.
 * Releases are kept: dist/ is committed, and the index lists every release with its digest and the
 * date it was first built.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Bundle } from '../bundle/bundle.js';
import { readBundleFile } from '../bundle/bundle-file.js';
import {
  BUNDLE_FILE,
  bundleFileOf,
  INDEX_FILE,
  indexEntryOf,
  INDEX_FORMAT,
  readIndex,
  releasesInDist,
  SCHEMAS_DIR,
  type DistIndex,
  type IndexEntry,
} from '../bundle/dist-layout.js';
import { editorSchemaFiles } from '../editor-schemas/editor-schemas.js';
import { checkReleases, type CompiledRelease } from '../upgrade/release-gate.js';
import { typeDeclarations } from './declarations.js';

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/**
 * Writes a file only when its bytes differ, so an unchanged build touches nothing. The text goes to
 * a temporary file renamed over the old one: a full disk or a crash leaves the old file whole, never
 * an empty or half-written index or bundle that a server would then refuse.
 */
function writeIfChanged(file: string, text: string): void {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  } catch (error) {
    // A half-written temporary file goes; whatever else stands at that name is not ours to remove.
    if (lstatSync(temporary, { throwIfNoEntry: false })?.isFile()) rmSync(temporary);
    // Name the file the build meant to write, not its temporary twin.
    throw Object.assign(error as NodeJS.ErrnoException, { path: file });
  }
}

/**
 * What a build says when the file system refuses a write (a full disk, a read-only or unwritable
 * folder): which file, and that what dist/ already held is whole. Undefined for any other error.
 */
export function distWriteFailure(error: unknown, outDir: string): string | undefined {
  const { code, path: file } = error as NodeJS.ErrnoException;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return undefined;
  const { message } = error as Error;
  return (
    `cannot write ${file ?? outDir} (${message.startsWith(code) ? message : `${code}: ${message}`}); ` +
    `files already in ${outDir} are whole: each is replaced by rename`
  );
}

/** The day a release is first built: SOURCE_DATE_EPOCH when set (reproducible builds), else today. */
function today(): string {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  return new Date(epoch !== undefined && /^\d+$/.test(epoch) ? Number(epoch) * 1000 : Date.now()).toISOString().slice(0, 10);
}

/** Writes the bundles, the index and the editor schemas into `outDir`, once the gate lets every release be built; returns the gate's notes. */
export async function writeDist(
  outDir: string,
  bundles: Bundle[],
  sources: Record<string, string>,
  compiled?: ReadonlyMap<Bundle, CompiledRelease>,
): Promise<{ index: DistIndex; notes: string[] }> {
  const notes = checkReleases(outDir, bundles, compiled);
  for (const bundle of bundles) {
    const { name, apiVersion, release } = bundle.repository;
    const dir = path.dirname(bundleFileOf(outDir, name, apiVersion, release));
    writeIfChanged(path.join(dir, BUNDLE_FILE), json(bundle));
    for (const collection of bundle.collections) {
      writeIfChanged(path.join(dir, 'schemas', `${collection.name}.schema.json`), json(collection.schema));
      writeIfChanged(path.join(dir, 'types', `${collection.name}.d.ts`), await typeDeclarations(bundle.repository, collection));
    }
  }
  const previous = readIndex(outDir);
  const dates = new Map((previous?.bundles ?? []).map((entry) => [`${entry.path}\u0000${entry.digest}`, entry.date]));
  const built = scanBundles(outDir);
  const index: DistIndex = {
    format: INDEX_FORMAT,
    sources: Object.fromEntries(Object.entries({ ...previous?.sources, ...sources }).sort(([a], [b]) => (a < b ? -1 : 1))),
    bundles: built.map(({ entry }) => ({ ...entry, date: dates.get(`${entry.path}\u0000${entry.digest}`) ?? today() })),
  };
  writeIfChanged(path.join(outDir, INDEX_FILE), json(index));
  writeEditorSchemas(
    outDir,
    built.map(({ bundle }) => bundle),
  );
  return { index, notes };
}

/**
 * dist/schemas/ holds the editor schemas of every bundle the index lists, old releases too. It is
 * derived, not released: rewritten on every build, and a file no bundle makes any more is removed.
 */
function writeEditorSchemas(outDir: string, bundles: Bundle[]): void {
  const files = editorSchemaFiles(bundles);
  const root = path.join(outDir, SCHEMAS_DIR);
  for (const [relative, text] of files) writeIfChanged(path.join(root, ...relative.split('/')), text);
  const wanted = new Set([...files.keys()]);
  const prune = (dir: string, relative: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        prune(path.join(dir, entry.name), name);
        if (readdirSync(path.join(dir, entry.name)).length === 0) rmSync(path.join(dir, entry.name), { recursive: true });
      } else if (!wanted.has(name)) rmSync(path.join(dir, entry.name));
    }
  };
  if (existsSync(root)) prune(root, '');
}

/** Every bundle under dist/, in a stable order, with its index entry (the caller dates it). */
function scanBundles(outDir: string): Array<{ entry: IndexEntry; bundle: Bundle }> {
  const found: Array<{ entry: IndexEntry; bundle: Bundle }> = [];
  const dirs = (dir: string) =>
    existsSync(dir)
      ? readdirSync(dir, { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => e.name)
          .sort()
      : [];
  for (const repository of dirs(outDir).filter((name) => name !== SCHEMAS_DIR)) {
    for (const apiVersion of dirs(path.join(outDir, repository))) {
      for (const release of releasesInDist(outDir, repository, apiVersion)) {
        const bundle = readBundleFile(bundleFileOf(outDir, repository, apiVersion, release));
        found.push({ bundle, entry: indexEntryOf(bundle, '') });
      }
    }
  }
  return found;
}
