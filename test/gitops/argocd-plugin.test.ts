/**
 * The Argo CD config management plugin: its generate command run as the repo server runs it (in the
 * application's folder, with the ARGOCD_APP_* and PARAM_* variables), its plugin.yaml, its discover
 * command, and the repo server sidecar of deploy/argocd/ built by kubectl kustomize.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { ARGOCD_PARAMETERS } from '../../src/gitops/argocd.js';
import { EXAMPLE, execAnswer, facetform, readRequestFile, runProcess } from '../helpers/gitops.js';
import { ROOT, tempDir } from '../helpers/repos.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { withoutKubectl } from '../helpers/tools.js';

const PLUGIN = parseYaml(readFileSync(path.join(ROOT, 'gitops/argocd/plugin.yaml'), 'utf8'));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ dist: path.join(ROOT, 'dist') });
});
afterAll(() => server.close());

/** An application's path as the repo server checks it out: the example's request files, and a manifest that is none. */
function appFolder(): string {
  const dir = tempDir();
  cpSync(path.join(EXAMPLE, 'requests'), path.join(dir, 'requests'), { recursive: true });
  cpSync(path.join(EXAMPLE, 'deployment.yaml'), path.join(dir, 'deployment.yaml'));
  return dir;
}

/** The plugin's generate command, its `node /app/bin/facetform.js` being this checkout's, run as the repo server runs it. */
function generate(dir: string, params: Record<string, string> = {}) {
  const [node, bin, ...args] = PLUGIN.spec.generate.command;
  expect([node, bin]).toEqual(['node', '/app/bin/facetform.js']);
  return facetform(args, {
    cwd: dir,
    env: {
      ARGOCD_APP_NAME: 'shop',
      ARGOCD_APP_NAMESPACE: 'shop',
      ARGOCD_APP_REVISION: '0123456789abcdef0123456789abcdef01234567',
      ARGOCD_APP_SOURCE_PATH: 'examples/kustomize',
      ARGOCD_APP_SOURCE_REPO_URL: 'https://git.example.com/shop.git',
      // The image's bundles, as the sidecar has them.
      BUNDLES_DIR: path.join(ROOT, 'dist'),
      ...params,
    },
  });
}

async function expectedStream(files: string[]): Promise<string> {
  let expected = '';
  for (const file of files) {
    const request = readRequestFile(file);
    const answer = await execAnswer(server, request, 'yaml');
    expected += request.kind === 'Request' ? `---\n${answer}` : answer;
  }
  return expected;
}

describe('the Argo CD plugin', () => {
  it('generates, on standard output only, the YAML documents the exec API answers for every request file of the app path', async () => {
    const dir = appFolder();
    const run = await generate(dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const files = readdirSync(path.join(dir, 'requests')).sort().map((name) => path.join(dir, 'requests', name));
    expect(run.stdout).toBe(await expectedStream(files));
  });

  it('takes the requests parameter to render some request files only, and the strict one to refuse unknown fields', async () => {
    const dir = appFolder();
    const only = await generate(dir, { PARAM_REQUESTS: 'requests/web.yaml' });
    expect(only.code).toBe(0);
    expect(only.stdout).toBe(await expectedStream([path.join(dir, 'requests/web.yaml')]));

    const request = readRequestFile(path.join(dir, 'requests/app-config.yaml'));
    request.spec.values['app-config'].metadata.labelz = { a: 'b' };
    writeFileSync(path.join(dir, 'requests/app-config.yaml'), JSON.stringify(request));
    const lenient = await generate(dir);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toBe('warning: requests/app-config.yaml: Request app-config: spec.values.app-config.metadata.labelz: is not a known field; it is not rendered\n');
    const strict = await generate(dir, { PARAM_STRICT: 'true' });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe('');
    expect(strict.stderr).toMatch(/^error: requests\/app-config\.yaml: Request app-config: spec\.values\.app-config\.metadata\.labelz: /m);
  });

  it('exits non-zero on a broken request file, with the file and the field on standard error and nothing on standard output', async () => {
    const dir = appFolder();
    const request = readRequestFile(path.join(dir, 'requests/web.yaml'));
    request.spec.resources[1].collection = 'ingres';
    writeFileSync(path.join(dir, 'requests/web.yaml'), JSON.stringify(request));
    const run = await generate(dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: requests\/web\.yaml: BatchRequest web: spec\.resources\[1\]\.collection: no collection "ingres"; known: .*ingress/m);
  });

  it('says so when the app path holds no request file', async () => {
    const run = await generate(tempDir());
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no facetform request file .* in examples\/kustomize/);
  });

  it('declares the parameters generate reads, and its discover command finds an app with request files, not a kustomization or plain manifests', async () => {
    expect(PLUGIN).toMatchObject({ apiVersion: 'argoproj.io/v1alpha1', kind: 'ConfigManagementPlugin', metadata: { name: 'facetform' } });
    expect(PLUGIN.spec.parameters.static.map((parameter: any) => parameter.name)).toEqual([...ARGOCD_PARAMETERS]);
    const [shell, ...args] = PLUGIN.spec.discover.find.command;
    const found = await runProcess(shell, args, { cwd: appFolder() });
    expect(found.stdout.trim()).toMatch(/^\.\/requests\/.+\.yaml$/);
    const plain = tempDir();
    cpSync(path.join(EXAMPLE, 'deployment.yaml'), path.join(plain, 'deployment.yaml'));
    expect((await runProcess(shell, args, { cwd: plain })).stdout).toBe('');
    expect((await runProcess(shell, args, { cwd: EXAMPLE })).stdout).toBe('');
  });

  it.skipIf(withoutKubectl)('deploy/argocd adds the sidecar to a repo server, running the cmp server in facetform\'s image with plugin.yaml mounted from its ConfigMap', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'repo-server.yaml'),
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: argocd-repo-server}\nspec:\n  selector: {matchLabels: {app: repo}}\n  template:\n    metadata: {labels: {app: repo}}\n    spec:\n      containers: [{name: argocd-repo-server, image: quay.io/argoproj/argocd}]\n      volumes: [{name: var-files, emptyDir: {}}, {name: plugins, emptyDir: {}}]\n',
    );
    writeFileSync(path.join(dir, 'kustomization.yaml'), `namespace: argocd\nresources: [repo-server.yaml]\ncomponents: [${path.relative(dir, path.join(ROOT, 'deploy/argocd'))}]\n`);
    const run = await runProcess('kubectl', ['kustomize', dir]);
    expect(run.code, run.stderr).toBe(0);
    const built = parseAllDocuments(run.stdout).map((document) => document.toJS());
    const configMap = built.find((resource) => resource.kind === 'ConfigMap');
    expect(configMap.data['plugin.yaml']).toBe(readFileSync(path.join(ROOT, 'gitops/argocd/plugin.yaml'), 'utf8'));
    const pod = built.find((resource) => resource.kind === 'Deployment').spec.template.spec;
    const sidecar = pod.containers.find((container: any) => container.name === 'facetform-cmp');
    expect(sidecar).toMatchObject({ image: 'facetform', command: ['/var/run/argocd/argocd-cmp-server'], securityContext: { runAsUser: 999 } });
    expect(sidecar.volumeMounts).toContainEqual({ name: 'facetform-cmp-plugin', mountPath: '/home/argocd/cmp-server/config/plugin.yaml', subPath: 'plugin.yaml' });
    expect(pod.volumes).toContainEqual({ name: 'facetform-cmp-plugin', configMap: { name: configMap.metadata.name } });
    // Every volume the sidecar mounts is the pod's.
    for (const mount of sidecar.volumeMounts) expect(pod.volumes.map((volume: any) => volume.name)).toContain(mount.name);
  });
});
