/**
 * The files a `requests` entry names: a file, a folder (its YAML and JSON files, all the way down),
 * or a glob pattern (`*`, `**`, `?`, `{a,b}`), as the `glob` package reads it. Hidden files and
 * folders such as .git are skipped. Paths are relative to `base`, sorted. As kustomize's own load
 * restriction, nothing outside `base` is read: an absolute path, a `..` that climbs out of it, or a
 * link that leads out of it is refused (on a shared Argo CD repo server, another app's files are there).
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { globSync, hasMagic } from 'glob';

const DATA_FILES = '**/*.{yaml,yml,json}';

export type Expanded = { files: string[]; folder: boolean } | { problem: string };

const inside = (root: string, file: string) => file === root || file.startsWith(root + path.sep);

/** The files `entry` names (none when it names none), or why it may not be read. */
export function expandRequests(base: string, entry: string): Expanded {
  const normal = path.normalize(entry);
  if (path.isAbsolute(normal) || normal === '..' || normal.startsWith(`..${path.sep}`)) {
    return { problem: `is outside the folder the command runs in (${base}); name files below it, relative to it` };
  }
  let files: string[];
  let folder = false;
  if (hasMagic(normal)) {
    files = globSync(normal, { cwd: base, nodir: true, posix: true }).map((file) => path.normalize(file));
  } else {
    let stats;
    try {
      stats = statSync(path.resolve(base, normal));
    } catch {
      return { files: [], folder };
    }
    folder = stats.isDirectory();
    files = folder ? globSync(DATA_FILES, { cwd: path.resolve(base, normal), nodir: true, posix: true }).map((file) => path.join(normal, file)) : [normal];
  }
  const root = realpathSync(base);
  for (const file of files) {
    let real: string;
    try {
      real = realpathSync(path.resolve(base, file));
    } catch {
      continue; // a dangling link: reading it says so
    }
    if (!inside(root, real)) return { problem: `${file} is a link to ${real}, outside the folder the command runs in (${base}); only files below it are read` };
  }
  return { files: files.sort(), folder };
}
