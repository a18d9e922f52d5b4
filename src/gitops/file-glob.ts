/**
 * The files a `requests` entry names: a file, a folder (its YAML and JSON files, all the way down),
 * or a pattern with `*` (within one name), `**` (any folders) and `?`. Node 20 has no fs.glob, and
 * the image carries no development dependency. Paths are relative to `base`, sorted.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const PATTERN_CHARACTERS = /[*?]/;
const DATA_FILE = /\.(ya?ml|json)$/;

/** Every file below `dir` (relative to `base`), hidden folders such as .git skipped. */
export function filesBelow(base: string, dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.resolve(base, dir), { withFileTypes: true })) {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.')) found.push(...filesBelow(base, relative));
    } else if (entry.isFile()) found.push(relative);
  }
  return found;
}

function patternRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (pattern.startsWith('**/', index)) {
      source += '(?:.*/)?';
      index += 2;
    } else if (pattern.startsWith('**', index)) {
      source += '.*';
      index += 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** The files `entry` names, or an empty list when it names none. */
export function expandRequests(base: string, entry: string): string[] {
  const normal = path.normalize(entry);
  if (!PATTERN_CHARACTERS.test(normal)) {
    let stats;
    try {
      stats = statSync(path.resolve(base, normal));
    } catch {
      return [];
    }
    if (stats.isDirectory()) return filesBelow(base, normal).filter((file) => DATA_FILE.test(file)).sort();
    return [normal];
  }
  // Walk from the folders before the first pattern segment only.
  const segments = normal.split('/');
  const first = segments.findIndex((segment) => PATTERN_CHARACTERS.test(segment));
  const root = segments.slice(0, first).join('/') || '.';
  let files: string[];
  try {
    files = filesBelow(base, root);
  } catch {
    return [];
  }
  const matcher = patternRegExp(normal);
  return files.map((file) => path.normalize(file)).filter((file) => matcher.test(file)).sort();
}
