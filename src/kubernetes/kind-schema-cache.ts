/**
 * Generated kind schemas kept on disk between runs: generating the kinds of one API group version
 * takes seconds (ts-json-schema-generator reads the whole declarations file), reading one back a
 * millisecond. Every entry's name carries a digest of what the schemas are made from: the installed
 * versions of the packages that generate and probe them, and the text of the running code that does
 * (every module of the folders it lives in), so an upgrade or an edit makes new entries and never
 * reads an old one. The cache is only a shortcut: any failure to read or write it means generating.
 * Its folder must be as private as node_modules: an entry is trusted as the code is.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KindSchema } from './kind-schema.js';
import { isPlainObject } from '../util/json.js';

/** The packages whose code or data a generated schema depends on; the ajv packages as kubernetes-models' validators load them. */
const INPUT_PACKAGES = [
  'kubernetes-models',
  '@kubernetes-models/apimachinery',
  '@kubernetes-models/base',
  '@kubernetes-models/validate',
  'ts-json-schema-generator',
  'typescript',
];
const VALIDATOR_PACKAGES = ['ajv', 'ajv-formats', 'ajv-formats-draft2019'];

// Two folders up from both src/kubernetes and the compiled lib/kubernetes.
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where the cache lives: `FACETFORM_CACHE_DIR` (a relative one from the working folder), else node_modules/.cache/facetform/kind-schemas. */
function cacheDirectory(): string {
  const configured = process.env.FACETFORM_CACHE_DIR;
  return configured ? path.resolve(configured) : path.join(PACKAGE_ROOT, 'node_modules/.cache/facetform/kind-schemas');
}

export class KindSchemaCache {
  private constructor(
    private readonly dir: string,
    private readonly digest: string,
  ) {}

  /** The cache for schemas made by the code in the given folders (URLs of folders: `new URL('.', import.meta.url)`). */
  static open(codeFolders: URL[], dir = cacheDirectory()): KindSchemaCache {
    const hash = createHash('sha256');
    const require = createRequire(import.meta.url);
    for (const name of INPUT_PACKAGES) hash.update(`${name}@${installedVersion(require, name)}\n`);
    const validators = createRequire(resolvedOrSelf(require, '@kubernetes-models/validate'));
    for (const name of VALIDATOR_PACKAGES) hash.update(`${name}@${installedVersion(validators, name)}\n`);
    for (const folder of codeFolders) {
      const dirPath = fileURLToPath(folder);
      for (const name of readdirSync(dirPath)
        .filter((file) => /\.(ts|js)$/.test(file))
        .sort())
        hash.update(`${name}\n`).update(readFileSync(path.join(dirPath, name)));
    }
    return new KindSchemaCache(dir, hash.digest('hex').slice(0, 16));
  }

  read(apiVersion: string, kind: string): KindSchema | undefined {
    let fd: number | undefined;
    try {
      // A regular file only: not a FIFO or a device that would block or never end, not a symlink.
      fd = openSync(this.fileOf(apiVersion, kind), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      if (!fstatSync(fd).isFile()) return undefined;
      const entry: unknown = JSON.parse(readFileSync(fd, 'utf8'));
      const valid = isPlainObject(entry) && entry.apiVersion === apiVersion && entry.kind === kind && isPlainObject(entry.definitions);
      return valid ? (entry as unknown as KindSchema) : undefined;
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /**
   * Writes one entry, whole or not at all: a new file of a random name (never one that exists, nor a
   * symlink), then a rename. Entries of other digests stay: two checkouts may share one folder.
   */
  write(schema: KindSchema): void {
    const file = this.fileOf(schema.apiVersion, schema.kind);
    const partial = `${file}.${randomBytes(8).toString('hex')}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(partial, JSON.stringify(schema), { flag: 'wx' });
      renameSync(partial, file);
    } catch {
      // A read-only install or a full disk: the next run generates again.
      try {
        rmSync(partial, { force: true });
      } catch {
        // No folder to remove it from.
      }
    }
  }

  private fileOf(apiVersion: string, kind: string): string {
    // kubeModel admits only [a-z0-9./-] versions and [A-Za-z0-9] kinds, so the name is safe once `/` is replaced.
    return path.join(this.dir, `${this.digest}-${apiVersion.replaceAll('/', '_')}-${kind}.json`);
  }
}

function resolvedOrSelf(require: NodeJS.Require, name: string): string {
  try {
    return require.resolve(name);
  } catch {
    return fileURLToPath(import.meta.url);
  }
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
