/**
 * Once per `vitest run` (vitest.config.ts globalSetup): one folder holds every temporary folder the
 * tests make, and goes when the run ends, whatever became of the workers that made them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(path.join(tmpdir(), 'facetform-tests-'));
  // Workers are forked after this, with this environment.
  process.env.FACETFORM_TEST_TMP = root;
  return () => rmSync(root, { recursive: true, force: true });
}
