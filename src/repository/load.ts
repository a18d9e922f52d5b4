/**
 * Reading template repositories from disk, as authors keep them:
 *
 *   <repos>/<repository>/repository.json
 *   <repos>/<repository>/<collection>/collection.json
 *   <repos>/<repository>/<collection>/sections/<section>.json
 *   <repos>/<repository>/<collection>/examples/<example>.json
 *   <repos>/<repository>/crds/<crd>.yaml (or .yml, .json)
 *   <repos>/<repository>/shared/<name>/shared.json
 *   <repos>/<repository>/shared/<name>/sections/<section>.json
 *
 * Nothing is judged here; lint judges. Files are listed in code-point order, which is the section
 * order of CONTRACT §4, so the result does not depend on the file system or the locale.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'glob';
import { SourceFile } from './source-file.js';

import { COLLECTION_FILE, CRDS_DIR, EXAMPLES_DIR, REPOSITORY_FILE, SECTIONS_DIR, SHARED_DIR, SHARED_FILE } from './layout.js';

export interface NamedFile {
  /** File name without `.json`. */
  name: string;
  file: SourceFile;
}

export interface CollectionSource {
  /** Folder name. */
  name: string;
  dir: string;
  file: SourceFile;
  sections: NamedFile[];
  examples: NamedFile[];
}

/** Sections written once, relative to a mount point, for the collections whose collection.json names them. */
export interface SharedSource {
  /** Folder name under `shared/`. */
  name: string;
  dir: string;
  /** shared.json: its name and the neutral variable its placeholders read. */
  file: SourceFile;
  sections: NamedFile[];
}

export interface RepositorySource {
  /** Folder name. */
  name: string;
  dir: string;
  file: SourceFile;
  collections: CollectionSource[];
  /** CustomResourceDefinitions in `crds/`: the kinds of custom resources its collections may render. */
  crds: NamedFile[];
  /** `shared/<name>/`: sections that collections mount. */
  shared: SharedSource[];
  /** Folders inside the repository that are not collections (no collection.json), `crds/` nor `shared/`. */
  strayDirs: string[];
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function listDir(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort(byCodePoint) : [];
}

function isDir(entry: string): boolean {
  return statSync(entry).isDirectory();
}

function jsonFiles(dir: string): NamedFile[] {
  if (!existsSync(dir)) return [];
  return globSync('*.json', { cwd: dir, nodir: true, dot: false })
    .sort(byCodePoint)
    .map((entry) => ({ name: entry.slice(0, -'.json'.length), file: new SourceFile(path.join(dir, entry)) }));
}

const CRD_FILE = /\.(ya?ml|json)$/i;

/** The CRD files of a repository, `crds/*.{yaml,yml,json}`, as SourceFiles (positions for lint). */
export function loadCrdFiles(repositoryDir: string): NamedFile[] {
  const dir = path.join(repositoryDir, CRDS_DIR);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .filter((entry) => CRD_FILE.test(entry) && statSync(path.join(dir, entry)).isFile())
    .sort(byCodePoint)
    .map((entry) => ({ name: entry.replace(CRD_FILE, ''), file: new SourceFile(path.join(dir, entry)) }));
}

/** The shared section folders of a repository, `shared/<name>/` with a shared.json; the others are stray. */
function loadShared(repositoryDir: string, strayDirs: string[]): SharedSource[] {
  const sharedDir = path.join(repositoryDir, SHARED_DIR);
  if (!existsSync(sharedDir) || !isDir(sharedDir)) return [];
  const shared: SharedSource[] = [];
  for (const name of listDir(sharedDir)) {
    const dir = path.join(sharedDir, name);
    if (!isDir(dir)) continue;
    if (!existsSync(path.join(dir, SHARED_FILE))) strayDirs.push(dir);
    else shared.push({ name, dir, file: new SourceFile(path.join(dir, SHARED_FILE)), sections: jsonFiles(path.join(dir, SECTIONS_DIR)) });
  }
  return shared;
}

/** Every repository of `reposDir`, or the ones `only` names (folder names). */
export function loadRepositories(reposDir: string, only?: readonly string[]): RepositorySource[] {
  if (!existsSync(reposDir) || !isDir(reposDir)) throw new Error(`repositories folder ${reposDir} does not exist`);
  const repositories: RepositorySource[] = [];
  for (const entry of listDir(reposDir)) {
    if (only !== undefined && !only.includes(entry)) continue;
    const dir = path.join(reposDir, entry);
    if (!isDir(dir) || !existsSync(path.join(dir, REPOSITORY_FILE))) continue;
    const collections: CollectionSource[] = [];
    const strayDirs: string[] = [];
    for (const child of listDir(dir)) {
      const collectionDir = path.join(dir, child);
      if (!isDir(collectionDir) || child === CRDS_DIR || child === SHARED_DIR) continue;
      if (!existsSync(path.join(collectionDir, COLLECTION_FILE))) {
        strayDirs.push(collectionDir);
        continue;
      }
      collections.push({
        name: child,
        dir: collectionDir,
        file: new SourceFile(path.join(collectionDir, COLLECTION_FILE)),
        sections: jsonFiles(path.join(collectionDir, SECTIONS_DIR)),
        examples: jsonFiles(path.join(collectionDir, EXAMPLES_DIR)),
      });
    }
    repositories.push({
      name: entry,
      dir,
      file: new SourceFile(path.join(dir, REPOSITORY_FILE)),
      collections,
      crds: loadCrdFiles(dir),
      shared: loadShared(dir, strayDirs),
      strayDirs,
    });
  }
  return repositories;
}
