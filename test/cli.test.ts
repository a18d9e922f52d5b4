/** The facetform command as a user runs it: the real bin in a child process. */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { MALFORMED_JSON } from './helpers/malformed-json.js';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { USAGE } from '../src/cli/main.js';
import { buildInto, runCli } from './helpers/build.js';
import { collectionOfKind, DEMO_REPOS, repositoriesIn, ROOT, SHIPPED_REPOS, tempDir } from './helpers/repos.js';

const BIN = path.join(ROOT, 'bin/facetform.js');
const SERVICE = collectionOfKind('Service');
const collectionPath = `${SERVICE.repository}/${SERVICE.collection}`;

async function facetform(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = promisify(execFile)(process.execPath, [BIN, ...args], { cwd: ROOT });
  if (input !== undefined) {
    child.child.stdin!.end(input);
  }
  try {
    const { stdout, stderr } = await child;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let dist: string;
let work: string;
beforeAll(async () => {
  dist = await buildInto(SHIPPED_REPOS);
  work = tempDir();
}, 60_000);

describe('facetform render', () => {
  it('prints the manifest of a whole exec request as JSON', async () => {
    const run = await facetform([
      'render',
      'service-resources/service',
      '--request',
      'repos/service-resources/service/examples/seed.json',
      '--bundles',
      dist,
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      apiVersion: 'v1',
      kind: 'Service',
      spec: { ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }] },
    });
  });

  it('reads values and globalvars from YAML files, takes facets from the command line and prints YAML', async () => {
    const values = path.join(work, 'values.yaml');
    const globalvars = path.join(work, 'globalvars.yaml');
    writeFileSync(
      values,
      'web:\n  metadata:\n    name: web\n  spec:\n    selector: {app: web}\n    ports:\n      - port: 80\nother:\n  metadata: {name: other}\n',
    );
    writeFileSync(globalvars, '__SVC_ID__: web\n');
    const run = await facetform([
      'render',
      'service-resources/service',
      '--facets',
      'addon:ports',
      '--values',
      values,
      '--globalvars',
      globalvars,
      '--format',
      'yaml',
      '--bundles',
      dist,
    ]);
    expect(run.code).toBe(0);
    expect(parseYaml(run.stdout)).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
    });
  });

  it('reads values from standard input', async () => {
    const run = await facetform(
      ['render', 'config-and-storage-resources/configmap', '--facets', 'addon:data', '--values', '-', '--bundles', dist],
      '{"c":{"metadata":{"name":"c"},"data":{"A":"1"}}}',
    );
    expect(JSON.parse(run.stdout)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { A: '1' } });
  });

  it('refuses a values or request file with a lone UTF-16 surrogate, naming its JSON Pointer as the server does', async () => {
    const values = path.join(work, 'surrogate.json');
    writeFileSync(values, '{"c":{"metadata":{"name":"c"},"data":{"k":"x\\ud800"}}}');
    const run = await facetform([
      'render',
      'config-and-storage-resources/configmap',
      '--facets',
      'addon:data',
      '--values',
      values,
      '--format',
      'yaml',
      '--bundles',
      dist,
    ]);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toContain(`values file ${values}: the string at /c/data/k holds a lone UTF-16 surrogate, which UTF-8 cannot carry`);
    const request = path.join(work, 'surrogate-request.yaml');
    writeFileSync(request, 'values:\n  c:\n    metadata: { name: c }\n    data: { "\\uDFFF": v }\n');
    const fromYaml = await facetform(['render', 'config-and-storage-resources/configmap', '--request', request, '--bundles', dist]);
    expect(fromYaml.code).toBe(2);
    expect(fromYaml.stderr).toContain(
      `request file ${request}: the member name "\\udfff" in the object at /values/c/data holds a lone UTF-16 surrogate`,
    );
  });

  it('refuses a manifest larger than the Kubernetes API server accepts, as the exec API does', async () => {
    // A kind whose own validation takes 3 MiB (a ConfigMap's data may hold 1 MiB at most): the CRD
    // seed with 3,300 properties of a thousand-character description in its schema.
    const crd = collectionOfKind('CustomResourceDefinition');
    const request = structuredClone(crd.seed);
    const id = request.globalvars![crd.variable]!;
    request.values[id].spec.versions[0].schema.openAPIV3Schema.properties = Object.fromEntries(
      Array.from({ length: 3300 }, (_, index) => [`p${index}`, { type: 'string', description: 'v'.repeat(1000) }]),
    );
    const run = await facetform(
      ['render', `${crd.repository}/${crd.collection}`, '--request', '-', '--bundles', dist],
      JSON.stringify(request),
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      new RegExp(
        `/values/${id}: the CustomResourceDefinition it renders takes 3\\.\\d MiB as JSON; the Kubernetes API server refuses an object over 3 MiB`,
      ),
    );
  });

  it('refuses a number too large for a double instead of rendering null, naming its JSON Pointer as the server does', async () => {
    const request = path.join(work, 'huge.json');
    writeFileSync(
      request,
      '{"values":{"crd":{"metadata":{"name":"w.example.com"},"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"number","default":1e400}}}]}}}}',
    );
    const run = await facetform(['render', 'extend-resources/customresourcedefinition', '--request', request, '--bundles', dist]);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toContain(
      `request file ${request}: the number at /values/crd/spec/versions/0/schema/openAPIV3Schema/default is too large to represent`,
    );
  });

  it('prints every problem to stderr and exits 1 when the values are wrong', async () => {
    const values = path.join(work, 'bad.json');
    writeFileSync(values, JSON.stringify({ web: { spec: { ports: [{ port: 'http' }] } } }));
    const run = await facetform([
      'render',
      'service-resources/service',
      '--facets',
      'addon:ports,addon:nope',
      '--values',
      values,
      '--bundles',
      dist,
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('/facets/1: "addon:nope" is not a facet of service');
    expect(run.stderr).toContain('/values/web/metadata: is required');
    expect(run.stderr).toContain('/values/web/spec/ports/0/port: must be integer');
  });

  it('warns about unknown fields on stderr and still renders; --strict refuses them', async () => {
    // The Service seed (a Service the API server takes: a ClusterIP Service needs its ports) with spec.port, which no placeholder reads.
    const service = collectionOfKind('Service');
    const request = structuredClone(service.seed);
    const id = request.globalvars![service.variable]!;
    request.values[id].spec.port = 80;
    const file = path.join(work, 'typo.json');
    writeFileSync(file, JSON.stringify(request));
    const collection = `${service.repository}/${service.collection}`;
    const lenient = await facetform(['render', collection, '--request', file, '--bundles', dist]);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toBe(`warning: unknown field /values/${id}/spec/port\n`);
    const strict = await facetform(['render', collection, '--request', file, '--strict', '--bundles', dist]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain(`/values/${id}/spec/port: is not a known field`);
  });

  it('names what exists when the repository or collection is unknown, and explains usage errors', async () => {
    // What exists is what repos/ holds (dist is built from it), so an author's new collection changes no line here.
    const repositories = repositoriesIn();
    const { name: repository, collections } = repositories.find((candidate) => candidate.collections.length > 0)!;
    expect((await facetform(['render', `${repository}/servce`, '--values', '-', '--bundles', dist], '{}')).stderr).toBe(
      `facetform render: no collection servce in ${repository}; known: ${collections.join(', ')}\n`,
    );
    expect((await facetform(['render', `nope/${collections[0]}`, '--values', '-', '--bundles', dist], '{}')).stderr).toContain(
      `known: ${repositories.map((candidate) => candidate.name).join(', ')}`,
    );
    const usage = await facetform(['render', 'service-resources/service', '--bundles', dist]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('facetform render: give either --values FILE or --request FILE\n');
    const missing = await facetform(['render', 'service-resources/service', '--values', 'no-such-file.json', '--bundles', dist]);
    expect(missing.stderr).toBe('facetform render: cannot read values file no-such-file.json: ENOENT\n');
  });

  // The server's wording (src/util/json-syntax.ts): a .json file is JSON, so YAML takes neither `tru` nor `["master",]`.
  it.each(MALFORMED_JSON)('names the line, column and cause of a .json request file with %s', async (_, text, where) => {
    const file = path.join(work, 'malformed.json');
    writeFileSync(file, text);
    const run = await facetform(['render', collectionPath, '--request', file, '--bundles', dist]);
    expect(run).toMatchObject({ code: 2, stderr: `facetform render: request file ${file} is not valid JSON ${where}\n` });
  });

  it("tells JSON that YAML cannot read in JSON's words, and reads YAML as YAML", async () => {
    // YAML's own words for a missing comma were "Missing , or : between flow sequence items".
    const run = await facetform(['render', collectionPath, '--request', '-', '--bundles', dist], '{"facets": ["master" "addon:spec"]}');
    expect(run).toMatchObject({
      code: 2,
      stderr: 'facetform render: request file - is not valid JSON at line 1, column 22: a comma belongs between two members or elements\n',
    });
    const yaml = await facetform(['render', collectionPath, '--request', '-', '--bundles', dist], 'facets: [master\n');
    expect(yaml.stderr).toMatch(/^facetform render: request file - is neither JSON nor YAML: /);
  });

  it('says to build first when there are no bundles', async () => {
    const run = await facetform(['render', 'service-resources/service', '--values', '-', '--bundles', path.join(work, 'nothing')], '{}');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('not found; build the bundles first with `npm run build`');
  });
});

describe('facetform render --batch', () => {
  it('prints a List of every resource of a batch request, or YAML documents', async () => {
    const json = await facetform(['render', '--batch', 'test/fixtures/batch/app.json', '--bundles', dist]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).items.map((item: { kind: string }) => item.kind)).toEqual([
      'Service',
      'Ingress',
      'ConfigMap',
      'PersistentVolumeClaim',
    ]);
    const yaml = await facetform(['render', '--batch', 'test/fixtures/batch/app.json', '--format', 'yaml', '--bundles', dist]);
    expect(parseAllDocuments(yaml.stdout).map((document) => document.toJS())).toEqual(JSON.parse(json.stdout).items);
  });

  it('prints every problem of every resource and exits 1', async () => {
    const batch = path.join(work, 'batch.json');
    writeFileSync(
      batch,
      JSON.stringify({
        resources: [
          { repository: 'service-resources', collection: 'service', facets: ['addon:x'] },
          { repository: 'nope', collection: 'y' },
        ],
        values: { w: { metadata: { name: 'w' } } },
      }),
    );
    const run = await facetform(['render', '--batch', batch, '--bundles', dist]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('/resources/0/facets/0: "addon:x" is not a facet of service');
    expect(run.stderr).toContain('/resources/1/repository: no repository "nope"');
  });
});

describe('facetform lint and build', () => {
  it('lint exits 0 and prints the summary for clean repositories', async () => {
    const run = await facetform(['lint', '--repos', DEMO_REPOS]);
    expect(run).toMatchObject({ code: 0, stdout: '0 errors, 0 warnings\n' });
  });

  it('lint exits 1 with file:line:col messages for broken ones', async () => {
    const run = await facetform(['lint', '--repos', path.join(ROOT, 'test/fixtures/broken-repos')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /broken-repos\/demo-resources\/settings\/sections\/core\.json:2:14 error facet "Master" is not "master" or "addon:<name>"\n    hint: /,
    );
  });

  it('prints usage for an unknown command', async () => {
    const run = await facetform(['frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown command "frobnicate"');
    expect(run.stderr).not.toContain('did you mean');
  });

  it('says which command or option a misspelt one meant, by the rule lint and the API use', async () => {
    const command = await facetform(['rendr']);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/^facetform: unknown command "rendr"; did you mean "render"\?\nUsage:/);
    const option = await facetform(['render', 'service-resources/service', '--reqest', 'seed.json']);
    expect(option).toMatchObject({ code: 2, stderr: 'facetform render: unknown option --reqest; did you mean "--request"?\n' });
    const far = await facetform(['lint', '--frobnicate']);
    expect(far).toMatchObject({ code: 2, stderr: 'facetform lint: unknown option --frobnicate; the command takes --repos\n' });
  });

  it('lint, build and diff name a repositories folder that does not exist, exit 2 and print no stack trace', async () => {
    const missing = path.join(tempDir(), 'nope');
    for (const command of ['lint', 'build', 'diff']) {
      const run = await facetform([command, '--repos', missing]);
      expect(run.code, command).toBe(2);
      expect(run.stderr).toContain(`facetform ${command}: repositories folder ${missing} does not exist`);
      expect(run.stderr).not.toContain('    at ');
    }
    const file = await facetform(['lint', '--repos', path.join(ROOT, 'package.json')]);
    expect(file).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`repositories folder ${path.join(ROOT, 'package.json')} is not a folder`),
    });
  });
});

describe('facetform help and version', () => {
  it("<command> --help and -h print that command's usage and exit 0, for every command", async () => {
    const commands = [...new Set([...USAGE.matchAll(/^ {2}facetform (\w+)/gm)].map((match) => match[1]!))].filter(
      (command) => command !== 'help' && command !== 'version',
    );
    expect(commands.length).toBeGreaterThan(1);
    for (const command of commands) {
      for (const flag of ['--help', '-h']) {
        const run = await runCli([command, flag]);
        expect(run, `${command} ${flag}`).toMatchObject({ code: 0, stderr: '' });
        const synopses = [...run.stdout.matchAll(/^ {2}facetform (\w+)/gm)].map((match) => match[1]);
        expect(synopses.length).toBeGreaterThan(0);
        expect(new Set(synopses)).toEqual(new Set([command]));
      }
    }
    // As a user runs it, with options around it.
    const render = await facetform(['render', 'service-resources/service', '--help']);
    expect(render).toMatchObject({ code: 0, stderr: '' });
    expect(render.stdout).toContain('--request FILE');
    expect(render.stdout).toContain('FILE is JSON or YAML');
  });

  it('--version and version print the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const args of [['--version'], ['version']])
      expect(await facetform(args)).toEqual({ code: 0, stdout: `facetform ${version}\n`, stderr: '' });
  });
});
