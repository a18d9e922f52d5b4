/**
 * Standalone kustomize (pinned in scripts/bench/peers.ts, built by go install) running facetform in
 * both its forms: the KRM function of examples/kustomize-krm (`--enable-exec`, which kubectl's
 * kustomize lacks) and the exec plugin of examples/kustomize that kubectl's kustomize runs too
 * (test/gitops/kustomize-plugin.test.ts). Each build must be the exec API's manifests for the
 * example's request files with the kustomization's transforms (test/helpers/kustomization.ts).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import { KUSTOMIZE } from '../../scripts/bench/peers.js';
import { EXAMPLE, PLUGIN_HOME, runProcess } from '../helpers/gitops.js';
import { brokenCopy, builtResources, expectedBuild, generatorOf } from '../helpers/kustomization.js';
import { goTool } from '../helpers/peer-tools.js';
import { ROOT } from '../helpers/repos.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const KRM_EXAMPLE = path.join(ROOT, 'examples/kustomize-krm');
const FUNCTION = 'config.kubernetes.io/function';
const kustomize = goTool(KUSTOMIZE);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ dist: path.join(ROOT, 'dist') });
});
afterAll(() => server.close());

/** The example's command, from the root of the repository as the kustomization's comment says. */
const buildKrm = (dir: string) => runProcess(kustomize, ['build', '--enable-alpha-plugins', '--enable-exec', dir]);

describe('standalone kustomize', () => {
  it('runs the KRM function its example names, an executable of this repository, by a path from the example folder', () => {
    const spec = parseYaml(generatorOf(KRM_EXAMPLE).metadata.annotations[FUNCTION]);
    expect(path.resolve(KRM_EXAMPLE, spec.exec.path)).toBe(path.join(ROOT, 'gitops/krm/facetform-krm'));
  });

  it("kustomize build --enable-alpha-plugins --enable-exec builds examples/kustomize-krm into the exec API's manifests, transformed, beside the plain Deployment", async () => {
    const run = await buildKrm(path.relative(ROOT, KRM_EXAMPLE));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(builtResources(run.stdout)).toEqual(await expectedBuild(server, KRM_EXAMPLE));
  });

  it("fails the build on a broken request file, and shows the function's problem with the file, the request and the field", async () => {
    const config = generatorOf(KRM_EXAMPLE);
    const spec = parseYaml(config.metadata.annotations[FUNCTION]);
    spec.exec.path = path.resolve(KRM_EXAMPLE, spec.exec.path);
    config.metadata.annotations[FUNCTION] = stringify(spec);
    config.bundles = path.resolve(KRM_EXAMPLE, config.bundles);
    const run = await buildKrm(brokenCopy(KRM_EXAMPLE, config));
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: requests\/app-config\.yaml: Request app-config: spec\.facets\[2\]: .*addon:nothing/m);
    expect(run.stderr).toMatch(/couldn't execute function/);
  });

  it('kustomize build --enable-alpha-plugins runs the exec plugin of examples/kustomize, as kubectl kustomize does', async () => {
    const run = await runProcess(kustomize, ['build', '--enable-alpha-plugins', EXAMPLE], { env: { KUSTOMIZE_PLUGIN_HOME: PLUGIN_HOME } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(builtResources(run.stdout)).toEqual(await expectedBuild(server, EXAMPLE));
  });
});
