/**
 * Custom resources (issue 15): a repository's CRD types a collection of its kind — the input schema
 * shows the CRD's enums and integers, and one 422 names every problem of a request, the CRD's CEL
 * rules included — and a kind nothing types fails lint unless the collection says it is untyped.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInto, runCli } from './helpers/build.js';
import { collectionOfKind, repoCopy, ROOT, SHIPPED_REPOS } from './helpers/repos.js';
import { BASE, execPath, problemOf, startTestServer, type TestServer } from './helpers/server.js';

const FIXTURES = path.join(ROOT, 'test/fixtures');
const CRD_FILE = path.join(FIXTURES, 'crds/databases.yaml');
/** The CRD as written: what the expectations are read from. */
const crd = parse(readFileSync(CRD_FILE, 'utf8'));
const served = crd.spec.versions.find((version: { served: boolean }) => version.served);
const specSchema = served.schema.openAPIV3Schema.properties.spec;
const collection = JSON.parse(readFileSync(path.join(FIXTURES, 'custom-resource/database/collection.json'), 'utf8'));

/** A copy of the shipped repositories with the Database CRD and its collection added to extend-resources. */
function reposWithDatabase(): string {
  const repos = repoCopy(SHIPPED_REPOS);
  cpSync(CRD_FILE, path.join(repos, 'extend-resources/crds/databases.yaml'));
  cpSync(path.join(FIXTURES, 'custom-resource/database'), path.join(repos, 'extend-resources/database'), { recursive: true });
  return repos;
}

describe('a collection of a kind a CRD defines', () => {
  let server: TestServer;
  const collectionPath = `${BASE}/extend-resources/v1/resources/collections/${collection.name}`;
  beforeAll(async () => {
    server = await startTestServer({ dist: await buildInto(reposWithDatabase()) });
  });
  afterAll(() => server?.close());

  it('takes its input schema from the CRD: enums, integer formats and required members', async () => {
    const schema = (await (await server.request(`${collectionPath}/schema`)).json()) as {
      properties: { spec: { properties: Record<string, { enum?: unknown[]; type?: string; format?: string }>; required: string[] } };
    };
    const spec = schema.properties.spec;
    expect(spec.properties.engine!.enum).toEqual(specSchema.properties.engine.enum);
    expect(spec.properties.replicas).toMatchObject({ type: 'integer', format: specSchema.properties.replicas.format });
    expect(spec.required).toEqual(expect.arrayContaining(specSchema.required));
  });

  it('renders a valid request and answers one 422 naming a wrong enum, a string for an integer, a missing member and a broken CEL rule', async () => {
    const rule = served.schema.openAPIV3Schema['x-kubernetes-validations'][0];
    const tooLong = 'd'.repeat(Number(/<= (\d+)/.exec(rule.rule)![1]) + 1);
    const ok = await server.request(`${collectionPath}/exec`, {
      method: 'POST',
      json: {
        facets: [],
        values: {
          orders: {
            metadata: { name: 'orders' },
            spec: { engine: specSchema.properties.engine.enum[0], storage: { size: '10Gi' }, replicas: 2 },
          },
        },
      },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      apiVersion: `${crd.spec.group}/${served.name}`,
      kind: crd.spec.names.kind,
      spec: { replicas: 2 },
    });

    const bad = await server.request(`${collectionPath}/exec`, {
      method: 'POST',
      json: { facets: [], values: { orders: { metadata: { name: tooLong }, spec: { engine: 'oracle', storage: {}, replicas: 'three' } } } },
    });
    const problem = await problemOf(bad);
    expect(problem.status).toBe(422);
    expect(problem.errors!.map((error) => error.pointer).sort()).toEqual([
      '/values/orders',
      '/values/orders/spec/engine',
      '/values/orders/spec/replicas',
      '/values/orders/spec/storage/size',
    ]);
    expect(problem.errors!.find((error) => error.pointer === '/values/orders')!.detail).toContain(rule.message);
  });
});

describe('a changed CRD', () => {
  it('is judged as any other input change: a narrowed enum breaks callers, even under a new patch release', async () => {
    const repos = reposWithDatabase();
    const out = await buildInto(repos);
    const crdCopy = path.join(repos, 'extend-resources/crds/databases.yaml');
    const [kept, ...dropped] = specSchema.properties.engine.enum as string[];
    writeFileSync(crdCopy, readFileSync(crdCopy, 'utf8').replace(`enum: [${[kept, ...dropped].join(', ')}]`, `enum: [${kept}]`));
    const declaration = path.join(repos, 'extend-resources/repository.json');
    const identity = JSON.parse(readFileSync(declaration, 'utf8'));
    const [major, minor, patch] = identity.release.split('.').map(Number);
    writeFileSync(declaration, JSON.stringify({ ...identity, release: `${major}.${minor}.${patch + 1}` }));
    const run = await runCli(['build', '--repos', repos, '--out', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`narrows or changes the type of input spec.engine of ${collection.name}`);
  });
});

describe('a shipped custom resource with a keyed list', () => {
  it('refuses two entries with the same key, as the API server does, where JSON Schema alone lets them through', async () => {
    // The first keyed list (x-kubernetes-list-type: map) of a shipped CRD, and a collection of its kind.
    const shipped = parse(readFileSync(path.join(SHIPPED_REPOS, 'extend-resources/crds/webapps.yaml'), 'utf8'));
    const keys: string[] = shipped.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.ports['x-kubernetes-list-map-keys'];
    const webapp = collectionOfKind(shipped.spec.names.kind);
    const [id, entry] = Object.entries(webapp.seed.values as Record<string, { spec: { ports: Array<Record<string, unknown>> } }>)[0]!;
    const server = await startTestServer();
    try {
      const [port] = entry.spec.ports;
      const twice = {
        ...webapp.seed,
        values: { [id]: { ...entry, spec: { ...entry.spec, ports: [port, { ...port, port: Number(port!.port) + 1 }] } } },
      };
      const problem = await problemOf(
        await server.request(execPath(webapp.repository, webapp.collection), { method: 'POST', json: twice }),
      );
      expect(problem.status).toBe(422);
      expect(problem.errors).toEqual([
        {
          pointer: `/values/${id}/spec/ports/1`,
          detail: expect.stringContaining(`Duplicate value: ${JSON.stringify(Object.fromEntries(keys.map((key) => [key, port![key]])))}`),
        },
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('lint of a collection whose kind nothing types', () => {
  it('fails with the file and line of its kind, unless the collection says it is untyped', async () => {
    const repos = repoCopy(SHIPPED_REPOS);
    cpSync(path.join(FIXTURES, 'custom-resource/database'), path.join(repos, 'extend-resources/database'), { recursive: true });
    const file = path.join(repos, 'extend-resources/database/collection.json');
    const line =
      readFileSync(file, 'utf8')
        .split('\n')
        .findIndex((text) => text.includes('"kind"')) + 1;
    const run = await runCli(['lint', '--repos', repos]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(
      new RegExp(
        `${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}:\\d+ error ${collection.apiVersion} ${collection.kind} is neither a built-in Kubernetes kind nor served by a CRD`,
      ),
    );

    writeFileSync(file, JSON.stringify({ ...collection, untyped: true }, null, 2));
    const untyped = await runCli(['lint', '--repos', repos]);
    expect(untyped.stderr).not.toContain('is neither a built-in Kubernetes kind');
    expect(untyped.code).toBe(0);
  });
});
