/** Temporary copies of repositories, so a test can plant one file and lint or build the copy. */
import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SHIPPED_REPOS = path.join(ROOT, 'repos');
export const DEMO_REPOS = path.join(ROOT, 'test/fixtures/repos');

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix = 'facetform-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A copy of `source` with `files` (relative path → text) written over it. */
export function repoCopy(source: string, files: Record<string, string> = {}): string {
  const dir = tempDir();
  cpSync(source, dir, { recursive: true });
  for (const [relative, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    writeFileSync(path.join(dir, relative), text);
  }
  return dir;
}

export function removeFrom(dir: string, relative: string): void {
  rmSync(path.join(dir, relative), { recursive: true });
}
