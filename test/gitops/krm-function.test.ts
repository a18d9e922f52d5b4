/**
 * `facetform krm` against the KRM Functions Specification's ResourceList protocol, run as kustomize
 * and kpt run it: a process reading standard input and writing standard output. Its manifests are
 * compared with what the exec API of a real server answers for the same request files.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { ROOT, tempDir } from '../helpers/repos.js';
import { EXAMPLE, execAnswer, facetform, manifestsOf, readRequestFile, runProcess } from '../helpers/gitops.js';
import { KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { hasKpt } from '../helpers/tools.js';

const DIST = path.join(ROOT, 'dist');
const REQUEST_FILES = readdirSync(path.join(EXAMPLE, 'requests')).sort().map((name) => `requests/${name}`);
const GENERATED = ['config.kubernetes.io/path', 'config.kubernetes.io/index', 'internal.config.kubernetes.io/path', 'internal.config.kubernetes.io/index'];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ dist: DIST });
});
afterAll(() => server.close());

const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain', annotations: { 'config.kubernetes.io/path': 'plain.yaml' } }, data: { mode: 'yes', port: '80' } };
const generator = (more: Record<string, unknown> = {}) => ({ apiVersion: 'facetform.dev/v1alpha1', kind: 'FacetformGenerator', metadata: { name: 'requests' }, bundles: DIST, ...more });
const resourceList = (items: unknown[], functionConfig?: unknown) => JSON.stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items, ...(functionConfig !== undefined && { functionConfig }) });
/** A request file as kustomize or kpt sends it among the items: with the path annotation of its file. */
const asItem = (file: string) => {
  const request = readRequestFile(path.join(EXAMPLE, file));
  return { ...request, metadata: { ...request.metadata, annotations: { 'config.kubernetes.io/path': file } } };
};

/** The exec API's manifests for the example's request files, in file order. */
async function expectedManifests(): Promise<any[]> {
  const manifests: any[] = [];
  for (const file of REQUEST_FILES) {
    const request = readRequestFile(path.join(EXAMPLE, file));
    manifests.push(...manifestsOf(request, await execAnswer(server, request, 'json')));
  }
  return manifests;
}

/** An output item without the annotations a generator sets for kpt and kustomize, in the JSON the exec API writes. */
function withoutGenerated(item: any): string {
  const annotations = Object.fromEntries(Object.entries(item.metadata.annotations ?? {}).filter(([name]) => !GENERATED.includes(name)));
  const metadata = { ...item.metadata, annotations };
  if (Object.keys(annotations).length === 0) delete metadata.annotations;
  return JSON.stringify({ ...item, metadata });
}

async function krm(input: string, env: Record<string, string> = {}) {
  const run = await facetform(['krm'], { cwd: EXAMPLE, input, env });
  return { ...run, list: parseYaml(run.stdout) };
}

describe('facetform krm', () => {
  it('replaces each request item with exactly the manifests the exec API answers, and passes other items through in place', async () => {
    const run = await krm(resourceList([configMap, ...REQUEST_FILES.map(asItem)], generator()));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.list).toMatchObject({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList' });
    expect(run.list.results).toBeUndefined();
    expect(run.list.items[0]).toEqual(configMap);
    const expected = await expectedManifests();
    expect(run.list.items.slice(1).map(withoutGenerated)).toEqual(expected.map((manifest) => JSON.stringify(manifest)));
  });

  it('renders the request files its FacetformGenerator names, each generated manifest annotated with a path beside its request file', async () => {
    const run = await krm(resourceList([configMap], generator({ requests: ['requests/*.yaml'] })));
    expect(run.code).toBe(0);
    const expected = await expectedManifests();
    expect(run.list.items.slice(1).map(withoutGenerated)).toEqual(expected.map((manifest) => JSON.stringify(manifest)));
    for (const item of run.list.items.slice(1)) {
      const annotations = item.metadata.annotations;
      expect(annotations['config.kubernetes.io/path']).toBe(`requests/${item.kind.toLowerCase()}_${item.metadata.name}.yaml`);
      expect(annotations['internal.config.kubernetes.io/path']).toBe(annotations['config.kubernetes.io/path']);
    }
  });

  it('renders the same with a facetform server as with the bundles, the API key read from the variable the config names', async () => {
    const config = { apiVersion: 'facetform.dev/v1alpha1', kind: 'FacetformGenerator', metadata: { name: 'r' }, server: server.url, apiKeyEnv: 'FACETFORM_SHOP_KEY', requests: ['requests'] };
    const run = await krm(resourceList([], config), { FACETFORM_SHOP_KEY: KEY });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const offline = await krm(resourceList([], generator({ requests: ['requests'] })));
    expect(run.stdout).toBe(offline.stdout);
    const missingKey = await krm(resourceList([], config));
    expect(missingKey.code).toBe(1);
    expect(missingKey.list.results[0].message).toMatch(/set the environment variable FACETFORM_SHOP_KEY/);
  });

  it('answers an empty items list with an empty one', async () => {
    const run = await krm(resourceList([], generator()));
    expect(run.code).toBe(0);
    expect(run.list).toEqual({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: [] });
  });

  it('reads a ResourceList written as YAML, with no functionConfig, and writes YAML', async () => {
    const input = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: shop\n`;
    const run = await krm(input);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(input);
  });

  it('puts a problem of a request item into results with its resource, file and KRM field path, gives the items back unchanged and exits 1', async () => {
    const broken = asItem('requests/web.yaml');
    broken.spec.values['web-service'].spec.ports[0].port = 'eighty';
    const items = [configMap, broken];
    const run = await krm(resourceList(items, generator()));
    expect(run.code).toBe(1);
    expect(run.list.items).toEqual(items);
    expect(run.list.results).toContainEqual({
      message: expect.any(String),
      severity: 'error',
      resourceRef: { apiVersion: 'facetform.dev/v1alpha1', kind: 'BatchRequest', name: 'web' },
      field: { path: 'spec.values.web-service.spec.ports[0].port' },
      file: { path: 'requests/web.yaml' },
    });
    // Kustomize shows a function's stderr, not its results: each result is a line there too.
    const lines = run.list.results.map((result: any) => `${result.severity}: ${result.file.path}: ${result.resourceRef.kind} ${result.resourceRef.name}: ${result.field.path}: ${result.message}\n`);
    expect(run.stderr).toBe(lines.join(''));
  });

  it('names a member the request file format does not have, and a required one missing, in the request files the config names', async () => {
    const dir = tempDir();
    cpSync(EXAMPLE, dir, { recursive: true });
    const request = readRequestFile(path.join(dir, 'requests/app-config.yaml'));
    request.spec.value = request.spec.values;
    delete request.spec.values;
    writeFileSync(path.join(dir, 'requests/app-config.yaml'), JSON.stringify(request));
    const run = await facetform(['krm'], { cwd: dir, input: resourceList([], generator({ requests: ['requests/app-config.yaml'] })) });
    expect(run.code).toBe(1);
    const results = parseYaml(run.stdout).results;
    expect(results.map((result: any) => [result.field.path, result.file.path])).toEqual([
      ['spec.value', 'requests/app-config.yaml'],
      ['spec.values', 'requests/app-config.yaml'],
    ]);
  });

  it('gives unknown fields as warnings, renders all the same and exits 0, offline and through a server alike', async () => {
    const request = asItem('requests/app-config.yaml');
    request.spec.values['app-config'].metadata['app.kubernetes.io/oops'] = 'x';
    // A member name with quotes and non-ASCII letters: a server's Warning header carries it as UTF-8 bytes in a quoted-string.
    request.spec.values['app-config'].metadata['ключ "q"'] = 'x';
    const serverConfig = { apiVersion: 'facetform.dev/v1alpha1', kind: 'FacetformGenerator', metadata: { name: 'r' }, server: server.url, apiKeyEnv: 'FACETFORM_SHOP_KEY' };
    const offline = await krm(resourceList([request], generator()));
    const online = await krm(resourceList([request], serverConfig), { FACETFORM_SHOP_KEY: KEY });
    for (const run of [offline, online]) {
      expect(run.code).toBe(0);
      expect(run.list.items.map((item: any) => item.kind)).toEqual(['ConfigMap']);
      expect(run.list.results).toEqual([
        expect.objectContaining({ severity: 'warning', field: { path: 'spec.values.app-config.metadata["app.kubernetes.io/oops"]' }, file: { path: 'requests/app-config.yaml' } }),
        expect.objectContaining({ severity: 'warning', field: { path: 'spec.values.app-config.metadata["ключ \\"q\\""]' }, file: { path: 'requests/app-config.yaml' } }),
      ]);
    }
    expect(online.list.results).toEqual(offline.list.results);
  });

  it('refuses what is not a ResourceList, and a FacetformGenerator with an unknown field, as an error result and exit 1', async () => {
    const notAList = await krm('apiVersion: v1\nkind: List\nitems: []\n');
    expect(notAList.code).toBe(1);
    expect(notAList.list.results).toEqual([expect.objectContaining({ severity: 'error', message: expect.stringMatching(/must be a ResourceList/) })]);
    expect(notAList.stderr).toBe(`error: ${notAList.list.results[0].message}\n`);
    const badConfig = await krm(resourceList([configMap], generator({ bundle: 'dist' })));
    expect(badConfig.code).toBe(1);
    expect(badConfig.list.items).toEqual([configMap]);
    expect(badConfig.list.results[0].message).toMatch(/bundle: is not a field of a FacetformGenerator/);
    const missingFile = await krm(resourceList([], generator({ requests: ['nowhere/*.yaml'] })));
    expect(missingFile.code).toBe(1);
    expect(missingFile.list.results[0]).toMatchObject({ severity: 'error', file: { path: 'nowhere/*.yaml' } });
  });

  it('runs as one executable for kustomize exec functions (gitops/krm/facetform-krm), with the same answer', async () => {
    const input = resourceList([configMap, asItem('requests/web.yaml')], generator());
    const script = await runProcess(path.join(ROOT, 'gitops/krm/facetform-krm'), [], { cwd: EXAMPLE, input });
    expect(script.code).toBe(0);
    expect(script.stdout).toBe((await krm(input)).stdout);
  });

  it.skipIf(!hasKpt)('runs under kpt fn eval --exec, which gets the same manifests, a request file given as an item and through requests rendered once', async () => {
    const dir = tempDir();
    cpSync(path.join(EXAMPLE, 'requests'), path.join(dir, 'requests'), { recursive: true });
    const config = path.join(tempDir(), 'fn-config.yaml');
    writeFileSync(config, JSON.stringify(generator({ requests: ['requests'] })));
    const run = await runProcess('kpt', ['fn', 'eval', '.', '--exec', `${process.execPath} ${path.join(ROOT, 'bin/facetform.js')} krm`, '--fn-config', config, '-o', 'unwrap'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const manifests = parseAllDocuments(run.stdout).map((document) => document.toJS());
    const expected = await expectedManifests();
    expect(manifests).toEqual(expected);
  });
});
