/**
 * Generated kind schemas kept on disk between runs: generating the kinds of one API group version
 * takes seconds (ts-json-schema-generator reads the whole declarations file), reading one back a
 * millisecond. Every entry's name carries a digest of what the schemas are made from (the installed
 * versions of kubernetes-models, the generator and TypeScript, and the text of our own generation
 * code), so an upgrade or an edit makes new entries and never reads a stale one. The cache is only
 * a shortcut: any failure to read or write it means generating, never an error.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KindSchema } from './kube-types.js';
import { isPlainObject } from '../util/json.js';

/** The packages whose code or data a generated schema depends on. */
const INPUT_PACKAGES = ['kubernetes-models', '@kubernetes-models/apimachinery', '@kubernetes-models/base', '@kubernetes-models/validate', 'ts-json-schema-generator', 'typescript'];

// Two folders up from both src/schema and the compiled lib/schema.
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where the cache lives: `FACETFORM_CACHE_DIR`, else node_modules/.cache/facetform as babel and eslint keep theirs. */
export function cacheDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return env.FACETFORM_CACHE_DIR || path.join(PACKAGE_ROOT, 'node_modules/.cache/facetform/kind-schemas');
}

export class KindSchemaCache {
  private constructor(
    private readonly dir: string,
    private readonly digest: string,
  ) {}

  /** The cache for schemas made by the given modules (their URLs, `import.meta.url`). */
  static open(generatorModules: string[], dir = cacheDirectory()): KindSchemaCache {
    const hash = createHash('sha256');
    const require = createRequire(import.meta.url);
    for (const name of INPUT_PACKAGES) hash.update(`${name}@${installedVersion(require, name)}\n`);
    for (const url of generatorModules) for (const file of sourcesOf(fileURLToPath(url))) hash.update(readFileSync(file));
    return new KindSchemaCache(dir, hash.digest('hex').slice(0, 16));
  }

  read(apiVersion: string, kind: string): KindSchema | undefined {
    try {
      const entry: unknown = JSON.parse(readFileSync(this.fileOf(apiVersion, kind), 'utf8'));
      const valid = isPlainObject(entry) && entry.apiVersion === apiVersion && entry.kind === kind && isPlainObject(entry.definitions);
      return valid ? (entry as unknown as KindSchema) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Writes one entry, whole or not at all (a rename). Entries of other digests stay: two checkouts
   * or a copy of the project may share one node_modules. Deleting the folder is always safe.
   */
  write(schema: KindSchema): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      const file = this.fileOf(schema.apiVersion, schema.kind);
      const partial = `${file}.${process.pid}.tmp`;
      writeFileSync(partial, JSON.stringify(schema));
      renameSync(partial, file);
    } catch {
      // A read-only install or a full disk: the next run generates again.
    }
  }

  private fileOf(apiVersion: string, kind: string): string {
    // kubeModel admits only [a-z0-9./-] versions and [A-Za-z0-9] kinds, so the name is safe once `/` is replaced.
    return path.join(this.dir, `${this.digest}-${apiVersion.replaceAll('/', '_')}-${kind}.json`);
  }
}

/**
 * A module as both its source (src/…/x.ts) and its compiled form (lib/…/x.js) where both exist: the
 * tests run the source in process and the compiled form in child processes, and both must come to
 * one digest, or each would drop the other's entries.
 */
function sourcesOf(file: string): string[] {
  const relative = path.relative(PACKAGE_ROOT, file).split(path.sep).join('/');
  const module = /^(?:src|lib)\/(.*)\.(?:ts|js)$/.exec(relative)?.[1];
  if (module === undefined) return [file];
  return [path.join(PACKAGE_ROOT, 'src', `${module}.ts`), path.join(PACKAGE_ROOT, 'lib', `${module}.js`)].filter((candidate) => existsSync(candidate));
}

/** The version of an installed package, found from its entry point up to its package.json. */
function installedVersion(require: NodeJS.Require, name: string): string {
  try {
    let dir = path.dirname(require.resolve(name));
    for (;;) {
      try {
        const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (manifest.name === name) return manifest.version ?? 'unknown';
      } catch {
        // No package.json at this level: go up.
      }
      const parent = path.dirname(dir);
      if (parent === dir) return 'unknown';
      dir = parent;
    }
  } catch {
    return 'missing';
  }
}
