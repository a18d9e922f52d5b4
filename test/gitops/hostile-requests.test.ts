/**
 * `facetform generate` against what a careless or hostile repository holds: nothing read outside
 * the folder it runs in, no request silently dropped, no stack trace, no key sent where the config
 * did not mean it to go, and no object larger than Kubernetes accepts.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { EXAMPLE, facetform, readRequestFile } from '../helpers/gitops.js';
import { collectionOfKind, ROOT, tempDir } from '../helpers/repos.js';

const REQUEST = readRequestFile(path.join(EXAMPLE, 'requests/app-config.yaml'));
const KEY = 'FACETFORM-SECRET-KEY-1234';

/** A folder with a generator over `requests`, the request files given, and the result of `facetform generate` run in it. */
async function generate(files: Record<string, string>, config: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  const dir = tempDir('facetform-hostile-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  const generator = { apiVersion: 'facetform.dev/v1alpha1', kind: 'FacetformGenerator', metadata: { name: 'g' }, bundles: path.join(ROOT, 'dist'), requests: ['requests/*.yaml'], ...config };
  writeFileSync(path.join(dir, 'generator.yaml'), stringify(generator));
  const run = await facetform(['generate', 'generator.yaml'], { cwd: dir, env });
  expect(run.stderr, 'no stack trace').not.toMatch(/\n\s+at /);
  return { ...run, dir };
}

describe('facetform generate with hostile request files', () => {
  it('refuses a misspelt kind or group instead of rendering nothing', async () => {
    for (const [member, value, pointer] of [
      ['kind', 'Requests', 'kind'],
      ['apiVersion', 'facetfrom.dev/v1alpha1', 'apiVersion'],
    ] as const) {
      const run = await generate({ 'requests/a.yaml': stringify({ ...REQUEST, [member]: value }) });
      expect(run.code, `${member}: ${value}`).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('requests/a.yaml');
      expect(run.stderr).toContain(pointer);
    }
  });

  it('refuses a file the requests name that holds no request', async () => {
    const run = await generate({ 'requests/a.yaml': stringify(REQUEST), 'requests/b.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/requests\/b\.yaml.*holds no facetform request/);
  });

  it('reads nothing outside the folder it runs in: no absolute path, no .., no link that leads out', async () => {
    const outside = tempDir('facetform-outside-');
    writeFileSync(path.join(outside, 'secret.yaml'), stringify(REQUEST));
    for (const requests of [[path.join(outside, 'secret.yaml')], [path.relative(tempDir('facetform-x-'), path.join(outside, 'secret.yaml'))], ['../*/secret.yaml']]) {
      const run = await generate({}, { requests });
      expect(run.code, requests[0]).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('outside the folder');
    }
    const dir = tempDir('facetform-linked-');
    mkdirSync(path.join(dir, 'requests'));
    symlinkSync(path.join(outside, 'secret.yaml'), path.join(dir, 'requests/linked.yaml'));
    writeFileSync(path.join(dir, 'generator.yaml'), stringify({ apiVersion: 'facetform.dev/v1alpha1', kind: 'FacetformGenerator', metadata: { name: 'g' }, bundles: path.join(ROOT, 'dist'), requests: ['requests/*.yaml'] }));
    const linked = await facetform(['generate', 'generator.yaml'], { cwd: dir });
    expect(linked.code).toBe(1);
    expect(linked.stdout).toBe('');
    expect(linked.stderr).toMatch(/requests\/linked\.yaml is a link to .*, outside the folder/);
    // What docs/gitops.md says is read: a `..` that stays inside, and bundles wherever they are (here absolute).
    const inside = await generate({ 'requests/a.yaml': stringify(REQUEST) }, { requests: ['requests/../requests/a.yaml'] });
    expect(inside.code, inside.stderr).toBe(0);
    expect(inside.stdout).toContain('kind: ConfigMap');
  });

  it('says a YAML alias bomb is YAML it cannot read', async () => {
    const levels = Array.from({ length: 10 }, (_, index) => `l${index}: &l${index} [${Array(9).fill(index === 0 ? '"x"' : `*l${index - 1}`).join(', ')}]`);
    const run = await generate({ 'requests/a.yaml': `apiVersion: facetform.dev/v1alpha1\nkind: Request\n${levels.join('\n')}\n` });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/requests\/a\.yaml.*is not YAML that can be read/);
  });

  it('refuses a manifest larger than the Kubernetes API server accepts, as the exec API does', async () => {
    // A kind whose own validation takes 3 MiB (a ConfigMap's data may hold 1 MiB at most): a Request
    // of the CRD seed with 3,300 properties of a thousand-character description in its schema.
    const crd = collectionOfKind('CustomResourceDefinition');
    const big = { ...REQUEST, spec: { repository: crd.repository, collection: crd.collection, ...structuredClone(crd.seed) } };
    const id = big.spec.globalvars![crd.variable]!;
    big.spec.values[id].spec.versions[0].schema.openAPIV3Schema.properties = Object.fromEntries(
      Array.from({ length: 3300 }, (_, index) => [`p${index}`, { type: 'string', description: 'v'.repeat(1000) }]),
    );
    const run = await generate({ 'requests/a.yaml': stringify(big) });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/the Kubernetes API server refuses an object over 3 MiB/);
  });

  it('says a bundles folder whose index is not one is not, naming it', async () => {
    const odd = tempDir('facetform-odd-');
    writeFileSync(path.join(odd, 'index.json'), 'null');
    const run = await generate({ 'requests/a.yaml': stringify(REQUEST) }, { bundles: odd });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/index\.json.*is not a facetform index/);
  });
});

describe('facetform generate with a server that is not what it seems', () => {
  let fake: Server;
  let url: string;
  const seen: Array<string | undefined> = [];
  let answer: (path: string) => { status: number; headers?: Record<string, string>; body: string };
  beforeAll(async () => {
    fake = createServer((request, response) => {
      seen.push(request.headers['x-apikey'] as string | undefined);
      const { status, headers = {}, body } = answer(request.url!);
      response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(body);
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

  const discovery = (path: string) => (path === '/apis/repos' ? { vendors: [{ name: 'facetform' }] } : { repositories: [{ name: REQUEST.spec.repository }] });
  const viaServer = () => generate({ 'requests/a.yaml': stringify(REQUEST) }, { bundles: undefined, server: url }, { FACETFORM_API_KEY: KEY });

  it('stops on an answer that is not a facetform server\'s, with exit 1 and no manifest', async () => {
    for (const bad of [
      (path: string) => ({ status: 200, headers: { 'Content-Type': 'text/html' }, body: '<html>login</html>' + path }),
      (path: string) => (path.includes('/exec') ? { status: 200, body: '{}' } : { status: 200, body: JSON.stringify(discovery(path)) }),
      () => ({ status: 200, body: '{"vendors":null}' }),
    ]) {
      answer = bad;
      const run = await viaServer();
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/not what a facetform server sends|not a manifest/);
    }
  });

  it('never follows a redirect, which would take the key along, and never prints the key the server echoes', async () => {
    answer = (path) => (path === '/apis/repos' ? { status: 302, headers: { Location: `${url}/elsewhere` }, body: '' } : { status: 401, body: JSON.stringify({ detail: `bad key ${KEY}` }) });
    seen.length = 0;
    const redirected = await viaServer();
    expect(redirected.code).toBe(1);
    expect(seen).toHaveLength(1);
    answer = () => ({ status: 401, body: JSON.stringify({ detail: `bad key ${KEY}` }) });
    const echoed = await viaServer();
    expect(echoed.code).toBe(1);
    expect(echoed.stderr).toContain('answered 401');
    expect(echoed.stderr).not.toContain(KEY);
  });

  it('sends only a FACETFORM_ variable as the key, and refuses a server URL with a password in it', async () => {
    const otherSecret = await generate({ 'requests/a.yaml': stringify(REQUEST) }, { bundles: undefined, server: url, apiKeyEnv: 'AWS_SECRET_ACCESS_KEY' }, { AWS_SECRET_ACCESS_KEY: 'x' });
    expect(otherSecret.code).toBe(1);
    expect(otherSecret.stderr).toMatch(/apiKeyEnv.*starts with FACETFORM_/);
    const password = await generate({ 'requests/a.yaml': stringify(REQUEST) }, { bundles: undefined, server: 'http://user:hunter2@127.0.0.1:1' }, { FACETFORM_API_KEY: KEY });
    expect(password.code).toBe(1);
    expect(password.stderr).toMatch(/no user or password/);
  });
});

// The example this file builds on renders as it is: the cases above fail for the reason they plant.
it('renders the example request unchanged', async () => {
  const run = await generate({ 'requests/a.yaml': readFileSync(path.join(EXAMPLE, 'requests/app-config.yaml'), 'utf8') });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toContain(`kind: ${'ConfigMap'}`);
});
