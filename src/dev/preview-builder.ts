/**
 * The working tree of repos/ compiled in memory, again on every save, for `facetform dev`. What did
 * not change is reused: the Kubernetes types (generating them is most of a build's time) are made
 * once per kind for the life of the process, compiled input validators are kept by schema text, and
 * a save recompiles only the repository it touched. A repository whose files have lint errors keeps
 * its last good preview serving. Nothing is written: releasing stays `facetform build`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { compileRepositories } from '../compiler/compile.js';
import type { Bundle } from '../bundle/bundle.js';
import { loadCollection, type LoadedBundle, type LoadedCollection } from '../bundle/load.js';
import { BundleRegistry } from '../bundle/registry.js';
import type { LintMessage } from '../lint/report.js';
import { REPOSITORY_FILE } from '../repository/layout.js';
import { keepCompiledValidators } from '../schema/input-validator.js';
import { sha256Digest } from '../util/digest.js';

/** One repository as the preview last compiled it. */
export interface RepositoryPreview {
  name: string;
  /** Of the files last compiled; undefined before the first compile. */
  fingerprint: string | undefined;
  /** The last bundle that compiled without lint errors: what is served. */
  served: LoadedBundle | undefined;
  /** When `served` was compiled. */
  servedAt: Date | undefined;
  /** Per collection of `served`, a digest of what discovery says of it. */
  shapes: Record<string, string>;
  /** Lint messages of the last compile. */
  messages: LintMessage[];
  errors: number;
  warnings: number;
}

export interface CompiledRepository {
  name: string;
  /** Lint messages of this compile, and those of them the compile before did not have. */
  messages: LintMessage[];
  newMessages: LintMessage[];
  errors: number;
  warnings: number;
  /** A new preview of it is served; false when lint errors keep the last good one (or none). */
  served: boolean;
}

export interface RebuildResult {
  compiled: CompiledRepository[];
  /** Repositories whose folder (or repository.json) is gone: no longer served. */
  removed: string[];
  /** What is served changed: the registry must be replaced. */
  changed: boolean;
}

/** The files a compile reads: JSON and YAML, and the folders (a collection folder without collection.json is a lint warning). */
const READ_BY_COMPILE = /\.(json|ya?ml)$/i;

/** Names and contents of what a compile of the repository reads: equal fingerprints compile alike. */
export function fingerprint(dir: string): string {
  const parts: string[] = [];
  const walk = (current: string, relative: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        parts.push(`${name}/`);
        walk(path.join(current, entry.name), name);
      } else if (READ_BY_COMPILE.test(entry.name)) {
        let text: string;
        try {
          text = readFileSync(path.join(current, entry.name), 'utf8');
        } catch {
          text = '\u0000unreadable'; // gone between listing and reading: the next event compiles again
        }
        parts.push(`${name}\u0000${text}`);
      }
    }
  };
  walk(dir, '');
  return sha256Digest(parts.join('\u0000'));
}

/** What discovery says of a collection (facets, sections, schema, examples), without what it renders: when it changes, a console reloads the collection. */
function shapeOf(collection: Bundle['collections'][number]): string {
  return sha256Digest(
    JSON.stringify({
      facets: collection.facets,
      sections: collection.sections.map(({ name, facets, description, required }) => ({ name, facets, description, required })),
      schema: collection.schema,
      examples: collection.examples.map(({ name, description, request }) => ({ name, description, request })),
      kind: collection.kind,
      apiVersion: collection.apiVersion,
      variable: collection.variable,
      description: collection.description,
    }),
  );
}

export class PreviewBuilder {
  private readonly repositories = new Map<string, RepositoryPreview>();

  constructor(readonly reposDir: string) {
    // The same schemas are compiled again on every save; ajv compiles each once.
    keepCompiledValidators();
  }

  /** Folder names of the repositories in the folder now. */
  present(): string[] {
    if (!existsSync(this.reposDir)) return [];
    return readdirSync(this.reposDir)
      .filter((entry) => {
        try {
          return statSync(path.join(this.reposDir, entry)).isDirectory() && existsSync(path.join(this.reposDir, entry, REPOSITORY_FILE));
        } catch {
          return false;
        }
      })
      .sort();
  }

  /** Every repository as last compiled, by name. */
  get state(): ReadonlyMap<string, RepositoryPreview> {
    return this.repositories;
  }

  registry(): BundleRegistry {
    return new BundleRegistry(
      [...this.repositories.values()].flatMap((repository) => (repository.served === undefined ? [] : [repository.served])),
    );
  }

  /**
   * Compiles the named repositories (every one when `names` is undefined) whose files changed
   * since their last compile; repositories no longer there are dropped.
   */
  async rebuild(names?: ReadonlySet<string>): Promise<RebuildResult> {
    const present = new Set(this.present());
    const targets = names === undefined ? new Set([...present, ...this.repositories.keys()]) : names;
    const removed: string[] = [];
    const toCompile: Array<{ name: string; fingerprint: string }> = [];
    for (const name of [...targets].sort()) {
      if (!present.has(name)) {
        if (this.repositories.delete(name)) removed.push(name);
        continue;
      }
      let print: string;
      try {
        print = fingerprint(path.join(this.reposDir, name));
      } catch {
        continue; // removed while being read: its own event follows
      }
      if (this.repositories.get(name)?.fingerprint !== print) toCompile.push({ name, fingerprint: print });
    }
    if (toCompile.length === 0) return { compiled: [], removed, changed: removed.length > 0 };

    const { report, bundles } = await compileRepositories(this.reposDir, { repositories: toCompile.map(({ name }) => name) });
    const compiled: CompiledRepository[] = [];
    for (const { name, fingerprint: print } of toCompile) {
      const dir = path.resolve(this.reposDir, name) + path.sep;
      const messages = report.sorted().filter((message) => path.resolve(message.file).startsWith(dir));
      const before = this.repositories.get(name);
      const seen = new Set((before?.messages ?? []).map(messageKey));
      const errors = messages.filter((message) => message.severity === 'error').length;
      const bundle = bundles.find((candidate) => candidate.repository.name === name);
      const next: RepositoryPreview = {
        name,
        fingerprint: print,
        served: before?.served,
        servedAt: before?.servedAt,
        shapes: before?.shapes ?? {},
        messages,
        errors,
        warnings: messages.length - errors,
      };
      if (errors === 0 && bundle !== undefined) {
        next.served = this.load(bundle, name);
        next.servedAt = new Date();
        next.shapes = Object.fromEntries(bundle.collections.map((collection) => [collection.name, shapeOf(collection)]));
      }
      this.repositories.set(name, next);
      compiled.push({
        name,
        messages,
        newMessages: messages.filter((message) => !seen.has(messageKey(message))),
        errors,
        warnings: next.warnings,
        served: next.served !== before?.served,
      });
    }
    return { compiled, removed, changed: removed.length > 0 || compiled.some((repository) => repository.served) };
  }

  /** A compiled bundle as the server serves one: render plans, validators and answer checks made now. */
  private load(bundle: Bundle, name: string): LoadedBundle {
    // No bundle.json exists; the repository's own declaration is where it came from.
    const file = path.join(this.reposDir, name, REPOSITORY_FILE);
    const collections = new Map<string, LoadedCollection>();
    for (const collection of bundle.collections) collections.set(collection.name, loadCollection(bundle, collection, file));
    return { bundle, file, collections };
  }
}

const messageKey = (message: LintMessage) => `${message.file}:${message.line}:${message.column} ${message.severity} ${message.message}`;
