/**
 * Shared sections (docs/authoring.md, "Shared sections"): one folder under shared/, mounted by a
 * ConfigMap collection at data and a Secret collection at stringData, built for real, served over
 * HTTP, linted at the shared file's lines, and judged by the release gate in both collections.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInto, runCli } from './helpers/build.js';
import { repoCopy, ROOT, tempDir } from './helpers/repos.js';
import { BASE, execPath, startTestServer, type TestServer } from './helpers/server.js';

const FIXTURE = path.join(ROOT, 'test/fixtures/shared-repos');
const REPO = 'shared-demo';
const LOG = `${REPO}/shared/settings/sections/log.json`;

const lint = async (repos: string) => {
  const run = await runCli(['lint', '--repos', repos]);
  return (run.stdout + run.stderr).split(repos + path.sep).join('');
};

describe('shared sections, built and served', () => {
  let server: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = await buildInto(FIXTURE);
    server = await startTestServer({ dist });
  });
  afterAll(() => server.close());

  it('renders the one shared section in each collection at its own mount point, reading its own variable', async () => {
    const values = (member: string) => ({ app: { metadata: { name: 'app' }, [member]: { LOG_LEVEL: 'warn' } } });
    const config = await server.request(execPath(REPO, 'config'), {
      method: 'POST',
      json: { facets: ['addon:log'], values: values('data') },
    });
    const secret = await server.request(execPath(REPO, 'secret'), {
      method: 'POST',
      json: { facets: ['addon:log'], values: values('stringData') },
    });
    expect(await config.json()).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'app' },
      data: { LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
    });
    expect(await secret.json()).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'app' },
      type: 'Opaque',
      stringData: { LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
    });
  });

  it("refuses a value the shared $values refuses, at the collection's own input path", async () => {
    const answer = await server.request(execPath(REPO, 'secret'), {
      method: 'POST',
      json: { facets: ['addon:log'], values: { app: { metadata: { name: 'app' }, stringData: { LOG_LEVEL: 'loud' } } } },
    });
    expect(answer.status).toBe(422);
    expect(JSON.stringify(await answer.json())).toContain('/values/app/stringData/LOG_LEVEL');
  });

  it('shows the mounted sections as each collection’s own in discovery and its input schema', async () => {
    for (const [collection, member] of [
      ['config', 'data'],
      ['secret', 'stringData'],
    ] as const) {
      const discovery = JSON.stringify(await (await server.request(`${BASE}/${REPO}/v1/resources/collections/${collection}`)).json());
      expect(discovery).toContain('settings.log');
      expect(discovery).toContain('addon:listen');
      const release = path.join(dist, REPO, 'v1/1.0.0');
      const schema = JSON.parse(readFileSync(path.join(release, `schemas/${collection}.schema.json`), 'utf8')) as any;
      expect(schema.properties[member].properties.LOG_LEVEL.enum).toEqual(['debug', 'info', 'warn', 'error']);
      expect(readFileSync(path.join(release, `types/${collection}.d.ts`), 'utf8')).toContain(
        `LOG_LEVEL?: 'debug' | 'info' | 'warn' | 'error';`,
      );
    }
  });
});

describe('shared sections, linted', () => {
  it('reports a wrong variable once, at the shared file, naming the shared folder’s variable', async () => {
    const repos = repoCopy(FIXTURE, {
      [LOG]: readFileSync(path.join(FIXTURE, LOG), 'utf8').replace('__SETTINGS__.LOG_LEVEL', '__CFG_ID__.LOG_LEVEL'),
    });
    expect(await lint(repos)).toContain(
      `${LOG}:5:3 error placeholder reads __CFG_ID__.LOG_LEVEL, but this shared folder's variable is __SETTINGS__\n`,
    );
  });

  it('names the collection that mounts it when the problem exists there alone', async () => {
    const repos = repoCopy(FIXTURE, {
      [`${REPO}/config/sections/format.json`]: JSON.stringify({ facets: ['addon:format'], data: { LOG_FORMAT: 'text' } }, null, 2) + '\n',
    });
    expect(await lint(repos)).toContain(
      `${LOG}:6:3 error data.LOG_FORMAT is also written by ${REPO}/config/sections/format.json:6:5 (as collection config mounts it at data)`,
    );
  });

  it('refuses a mount of a folder that does not exist, with the one meant', async () => {
    const file = `${REPO}/secret/collection.json`;
    const repos = repoCopy(FIXTURE, {
      [file]: readFileSync(path.join(FIXTURE, file), 'utf8').replace('"name": "settings"', '"name": "setings"'),
    });
    expect(await lint(repos)).toContain(`${file}:7:16 error no shared folder setings in this repository`);
  });

  it('warns of a section file that copies another, whatever variable it reads', async () => {
    const copy = (variable: string) =>
      JSON.stringify({ facets: ['addon:owner'], metadata: { labels: { team: `{{ ${variable}.team }}`, tier: 'web' } } }, null, 2) + '\n';
    const repos = repoCopy(FIXTURE, {
      [`${REPO}/config/sections/owner.json`]: copy('__CFG_ID__'),
      [`${REPO}/secret/sections/owner.json`]: copy('__SEC_ID__'),
    });
    expect(await lint(repos)).toContain(
      `${REPO}/secret/sections/owner.json:1:1 warning section writes the same content as ${REPO}/config/sections/owner.json, reading its own variable`,
    );
  });
});

describe('shared sections, released', () => {
  it('judges a change to a shared section in every collection that mounts it', async () => {
    const repos = repoCopy(FIXTURE);
    const out = await buildInto(repos, tempDir('facetform-dist-'));
    writeFileSync(
      path.join(repos, LOG),
      readFileSync(path.join(repos, LOG), 'utf8').replace('"LOG_FORMAT": "json"', '"LOG_FORMAT": "text"'),
    );
    const repository = path.join(repos, REPO, 'repository.json');
    writeFileSync(repository, readFileSync(repository, 'utf8').replace('"1.0.0"', '"1.0.1"'));
    const run = await runCli(['build', '--repos', repos, '--out', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'changes what section settings.log of config renders; changes what section settings.log of secret renders',
    );
    expect(run.stderr).toMatch(
      /config renders differently for \d+ of \d+ requests \(\/data\/LOG_FORMAT\); secret renders differently for \d+ of \d+ requests \(\/stringData\/LOG_FORMAT\)/,
    );
  });
});
