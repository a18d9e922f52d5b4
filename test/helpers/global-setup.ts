/**
 * Once per `vitest run` (vitest.config.ts globalSetup): one folder holds every temporary folder the
 * tests make, and goes when the run ends, whatever became of the workers that made them; and the
 * kind schemas the repositories need are in the disk cache before any worker asks for them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compileRepositories } from '../../src/compiler/compile.js';
import { DEMO_REPOS, ROOT, SHIPPED_REPOS } from './repos.js';

/**
 * The kubeconfig of every kubectl the tests run. Without one kubectl talks to localhost:8080, and some
 * builds (Google Cloud SDK's) ask its /version even for `kubectl kustomize` or `--local`: a test must
 * reach no server it did not start. Nothing listens on port 1, so a call that needs a server fails at once.
 */
const KUBECONFIG = `apiVersion: v1
kind: Config
clusters: [{ name: none, cluster: { server: 'https://127.0.0.1:1' } }]
contexts: [{ name: none, context: { cluster: none } }]
current-context: none
`;

export default async function setup(): Promise<() => void> {
  // On a fresh clone the cache is empty: generated once here (about 10 s each), not by three workers
  // at once. Once by src/ (tests in process) and once by lib/ (the CLI as a child): their digests differ.
  for (const repos of [SHIPPED_REPOS, DEMO_REPOS]) {
    await compileRepositories(repos);
    spawnSync(process.execPath, [`${ROOT}/bin/facetform.js`, 'lint', '--repos', repos], { stdio: 'ignore' });
  }
  const root = mkdtempSync(path.join(tmpdir(), 'facetform-tests-'));
  // Workers are forked after this, with this environment.
  process.env.FACETFORM_TEST_TMP = root;
  process.env.KUBECONFIG = path.join(root, 'kubeconfig');
  writeFileSync(process.env.KUBECONFIG, KUBECONFIG);
  return () => rmSync(root, { recursive: true, force: true });
}
