/**
 * API keys. The configured keys are kept as sha256 hashes only, in memory and in API_KEYS_FILE; a
 * presented key is hashed and compared with every known hash using crypto.timingSafeEqual, without
 * stopping at a match, so the time taken says nothing about which keys exist. A key found valid is
 * remembered as presented (as its requests hold it anyway) until the keys are replaced, so that a
 * caller's next requests skip the hash; see `identify`. A heap dump of a serving process
 * therefore holds the keys in use, as it holds any request in flight.
 */
import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Digest } from '../util/digest.js';
import { FileReadError, readRegularFile, readRegularFileSync } from '../util/regular-file.js';

export interface KeyEntry {
  name: string;
  hash: Buffer;
}

const KEY_LINE = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s+sha256:([0-9a-f]{64})$/;

export function hashKey(key: string): Buffer {
  // The one-shot hash where Node has it (20.12+): it costs a third of a Hash object per request.
  return typeof hash === 'function' ? hash('sha256', key, 'buffer') : createHash('sha256').update(key, 'utf8').digest();
}

export function newKey(): string {
  return 'ff_' + randomBytes(32).toString('base64url');
}

/** The line to put in API_KEYS_FILE for a key. */
export function keyFileEntry(name: string, key: string): string {
  return `${name} ${sha256Digest(key)}`;
}

export class KeyFileError extends Error {}

/**
 * The most bytes API_KEYS_FILE may have: about 13,000 keys at the 80 bytes an entry takes. A larger
 * file, or one that is not a regular file (a FIFO, a device), is refused before it is read.
 */
export const MAX_KEY_FILE_BYTES = 1024 * 1024;

/** A folder, a FIFO, a file too large or without read permission, one removed meanwhile: said, not a stack. */
function keyFileUnread(error: unknown): never {
  if (!(error instanceof FileReadError)) throw error;
  throw new KeyFileError(`${error.message}; it must be a file of \`NAME sha256:HEX\` lines`);
}

/** Parses API_KEYS_FILE: one `NAME sha256:HEX` a line, at least one; blank lines and `#` comments are skipped. */
export function parseKeyFile(text: string, file: string): KeyEntry[] {
  const entries: KeyEntry[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const match = KEY_LINE.exec(line);
    if (!match)
      throw new KeyFileError(
        `${file}:${index + 1}: expected "NAME sha256:<64 hex digits>"; make an entry with \`npx facetform keys new NAME\``,
      );
    if (entries.some((entry) => entry.name === match[1]))
      throw new KeyFileError(`${file}:${index + 1}: key name ${match[1]} is used twice`);
    entries.push({ name: match[1]!, hash: Buffer.from(match[2]!, 'hex') });
  });
  // A file without a key refuses every caller: a mistake (a truncated copy, the wrong mount), not a setting.
  if (entries.length === 0)
    throw new KeyFileError(`${file}: holds no key, so every request would be refused (401); add one with \`npx facetform keys new NAME\``);
  return entries;
}

/** Valid keys remembered at most: a caller cannot grow the map, since only a valid key enters it. */
const REMEMBERED_KEYS = 1000;

export class ApiKeys {
  /** Presented key → name, for keys that matched an entry. */
  private readonly known = new Map<string, string>();

  constructor(private entries: KeyEntry[]) {}

  static fromPlainKeys(keys: string[]): ApiKeys {
    // Named API_KEYS#1, #2, …: a name a key file cannot hold, so the two never share a rate budget.
    return new ApiKeys(keys.map((key, index) => ({ name: `API_KEYS#${index + 1}`, hash: hashKey(key) })));
  }

  /** The keys of API_KEYS_FILE, at start (before serving). */
  static fromFile(file: string): ApiKeys {
    let text: string;
    try {
      text = readRegularFileSync(file, MAX_KEY_FILE_BYTES).toString('utf8');
    } catch (error) {
      keyFileUnread(error);
    }
    return new ApiKeys(parseKeyFile(text, file));
  }

  /** The keys of API_KEYS_FILE, read on reload while serving: the event loop is not held by the read. */
  static async readFile(file: string): Promise<ApiKeys> {
    let text: string;
    try {
      text = (await readRegularFile(file, MAX_KEY_FILE_BYTES)).toString('utf8');
    } catch (error) {
      keyFileUnread(error);
    }
    return new ApiKeys(parseKeyFile(text, file));
  }

  get size(): number {
    return this.entries.length;
  }

  /** Replaces the keys, e.g. when API_KEYS_FILE is reloaded. */
  replace(other: ApiKeys): void {
    this.entries = other.entries;
    this.known.clear(); // a key taken out must stop working at once
  }

  add(entries: ApiKeys): ApiKeys {
    return new ApiKeys([...this.entries, ...entries.entries]);
  }

  /**
   * The name of the key, or undefined when it is not a valid key. A remembered key is found by the
   * map's lookup, whose time tells nothing about the keys either: a wrong key is compared with a
   * remembered one only when their string hashes are equal, and V8 seeds those per process; every
   * other key is hashed and compared with every entry, as before.
   */
  identify(presented: string): string | undefined {
    const remembered = this.known.get(presented);
    if (remembered !== undefined) return remembered;
    const hash = hashKey(presented);
    let found: string | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(hash, entry.hash) && found === undefined) found = entry.name;
    }
    if (found !== undefined && this.known.size < REMEMBERED_KEYS) this.known.set(presented, found);
    return found;
  }
}
