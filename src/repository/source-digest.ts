/** Digest of a repository's source files, so a start can tell whether dist/ is stale. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sha256Digest } from '../util/digest.js';

export function sourceDigest(dir: string): string {
  const files: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.push(full);
    }
  };
  walk(dir);
  return sha256Digest(
    files.map((file) => `${path.relative(dir, file).split(path.sep).join('/')}\u0000${readFileSync(file, 'utf8')}`).join('\u0000'),
  );
}
