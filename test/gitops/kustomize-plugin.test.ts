/**
 * The kustomize exec plugin (gitops/kustomize/plugin/…/FacetformGenerator) run for real by the
 * installed kubectl's kustomize, on the example kustomization of examples/kustomize/.
 *
 * What kustomize prints must be the exec API's manifests and the plain Deployment with the example's
 * own transforms, nothing more (test/helpers/kustomization.ts, as data); the plugin's own output is
 * compared byte for byte.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/repos.js';
import { EXAMPLE, execAnswer, facetform, PLUGIN_HOME, readRequestFile, runProcess } from '../helpers/gitops.js';
import { brokenCopy, builtResources, expectedBuild, generatorOf, requestFilesOf } from '../helpers/kustomization.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { withoutKubectl } from '../helpers/tools.js';

const generatorConfig = generatorOf(EXAMPLE);
const requestFiles = requestFilesOf(EXAMPLE);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ dist: path.join(ROOT, 'dist') });
});
afterAll(() => server.close());

const kustomize = (dir: string) => runProcess('kubectl', ['kustomize', '--enable-alpha-plugins', dir], { env: { KUSTOMIZE_PLUGIN_HOME: PLUGIN_HOME } });

describe('the kustomize exec plugin', () => {
  it('is an executable where kustomize looks for kind FacetformGenerator of facetform.dev/v1alpha1', () => {
    const [group, version] = generatorConfig.apiVersion.split('/');
    const plugin = path.join(PLUGIN_HOME, group, version, generatorConfig.kind.toLowerCase(), generatorConfig.kind);
    expect(spawnSync('test', ['-x', plugin]).status).toBe(0);
  });

  it('prints, byte for byte, the YAML documents the exec API answers for the example\'s request files', async () => {
    const run = await runProcess(path.join(PLUGIN_HOME, 'facetform.dev/v1alpha1/facetformgenerator/FacetformGenerator'), [path.join(EXAMPLE, 'facetform.yaml')], { cwd: EXAMPLE });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    let expected = '';
    for (const file of requestFiles) {
      const request = readRequestFile(file);
      const answer = await execAnswer(server, request, 'yaml');
      // One exec answer is one document; a batch's are a stream, each after ---.
      expected += request.kind === 'Request' ? `---\n${answer}` : answer;
    }
    expect(run.stdout).toBe(expected);
  });

  it.skipIf(withoutKubectl)('kubectl kustomize --enable-alpha-plugins builds the example into the exec API\'s manifests, transformed, beside the plain Deployment', async () => {
    const run = await kustomize(EXAMPLE);
    expect(run.code, run.stderr).toBe(0);
    expect(builtResources(run.stdout)).toEqual(await expectedBuild(server, EXAMPLE));
  });

  it.skipIf(withoutKubectl)('fails the kustomize build on a broken request file, naming the file and the field', async () => {
    const run = await kustomize(brokenCopy(EXAMPLE, { ...generatorConfig, bundles: path.join(ROOT, 'dist') }));
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/error: requests\/app-config\.yaml: Request app-config: spec\.facets\[2\]: .*addon:nothing/);
  });

  it('says where a generator file is wrong', async () => {
    const file = path.join(tempDir(), 'generator.yaml');
    writeFileSync(file, 'apiVersion: facetform.dev/v1alpha1\nkind: FacetformGenerator\nbundles: dist\nserver: https://facetform.example\nrequests: requests\n');
    const run = await facetform(['generate', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/requests: must be array/);
    expect(run.stderr).toMatch(/server: give bundles .* or server .*, not both/);
  });
});
