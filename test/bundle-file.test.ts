/**
 * Reading bundle.json (src/bundle/bundle-file.ts): every reader checks the digest, so a bundle
 * changed after its build is refused by the build as by the server, each naming the file.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Bundle, sealBundle } from '../src/bundle/bundle.js';
import { loadBundles } from '../src/bundle/load.js';
import { runCli } from './helpers/build.js';
import { SHIPPED_REPOS, tempDir } from './helpers/repos.js';
import { shippedBundles } from './helpers/server.js';

/** A copy of the shipped dist/ and the file of its first bundle, rewritten by `change` (unsealed unless it seals). */
async function distWithChangedBundle(change: (bundle: Bundle) => Bundle): Promise<{ dist: string; file: string }> {
  const dist = tempDir();
  cpSync(await shippedBundles(), dist, { recursive: true });
  const [first] = (JSON.parse(readFileSync(path.join(dist, 'index.json'), 'utf8')) as { bundles: Array<{ path: string }> }).bundles;
  const file = path.join(dist, first!.path);
  writeFileSync(file, JSON.stringify(change(JSON.parse(readFileSync(file, 'utf8')) as Bundle), null, 2) + '\n');
  return { dist, file };
}

describe('bundle files', () => {
  it('a build refuses a released bundle changed after its build, naming the file and saying to restore it', async () => {
    const { dist, file } = await distWithChangedBundle((bundle) => {
      const repository = { ...bundle.repository, description: `${bundle.repository.description} Changed.` };
      return { ...bundle, repository };
    });
    const run = await runCli(['build', '--repos', SHIPPED_REPOS, '--out', dist]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`build failed: ${file}: content does not match its digest`);
    expect(run.stderr).toContain('restore the file as it was built');
  }, 60_000);

  it('are refused when their release is not a semver release, even when sealed', async () => {
    const { dist, file } = await distWithChangedBundle(({ digest: _, ...bundle }) => {
      const repository = { ...bundle.repository, release: `${bundle.repository.release}-rc.01` };
      return sealBundle({ ...bundle, repository });
    });
    expect(() => loadBundles(dist)).toThrow(`${file}: repository.release "`);
    expect(() => loadBundles(dist)).toThrow('-rc.01" is not a release (semver, e.g. "1.0.0")');
  });
});
