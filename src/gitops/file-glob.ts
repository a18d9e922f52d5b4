/**
 * The files a `requests` entry names: a file, a folder (its YAML and JSON files, all the way down),
 * or a glob pattern (`*`, `**`, `?`, `{a,b}`), as the `glob` package reads it. Hidden files and
 * folders such as .git are skipped. Paths are relative to `base`, sorted.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { globSync, hasMagic } from 'glob';

const DATA_FILES = '**/*.{yaml,yml,json}';

/** The files `entry` names, or an empty list when it names none. */
export function expandRequests(base: string, entry: string): string[] {
  const normal = path.normalize(entry);
  if (hasMagic(normal)) return globSync(normal, { cwd: base, nodir: true, posix: true }).map((file) => path.normalize(file)).sort();
  let stats;
  try {
    stats = statSync(path.resolve(base, normal));
  } catch {
    return [];
  }
  if (!stats.isDirectory()) return [normal];
  return globSync(DATA_FILES, { cwd: path.resolve(base, normal), nodir: true, posix: true }).map((file) => path.join(normal, file)).sort();
}
