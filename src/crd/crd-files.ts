/**
 * The CRD files of a repository, `<repository>/crds/*.{yaml,yml,json}`, as SourceFiles (positions
 * for lint), in code-point order like every other listing of a repository.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { NamedFile } from '../repository/load.js';
import { SourceFile } from '../repository/source-file.js';

export const CRDS_DIR = 'crds';

const CRD_FILE = /\.(ya?ml|json)$/i;

export function loadCrdFiles(repositoryDir: string): NamedFile[] {
  const dir = path.join(repositoryDir, CRDS_DIR);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .filter((entry) => CRD_FILE.test(entry) && statSync(path.join(dir, entry)).isFile())
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((entry) => ({ name: entry.replace(CRD_FILE, ''), file: new SourceFile(path.join(dir, entry)) }));
}
