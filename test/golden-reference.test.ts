/**
 * Golden output whose expected side does not come from the product: every example of repos/ is rendered
 * by the real server and by the reference renderer of test/helpers/reference-render.ts, written from the
 * contract alone. test/golden/ (written by the product through toMatchFileSnapshot) is checked against
 * the reference too, so a snapshot updated with a wrong answer fails here. A copy of the demo repository
 * with planted sections adds what the shipped sections never use (interpolation, `??` with both sides set).
 *
 * Not covered by the reference, by design: input validation and `$values` refinements (schema tests),
 * required values and errors (render-contract, problems), the check of answers against Kubernetes or a
 * CRD (golden.test.ts, kubernetes-fidelity), YAML output (kubectl-yaml).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRender, type ExecRequest } from './helpers/reference-render.js';
import { buildInto } from './helpers/build.js';
import { DEMO_REPOS, SHIPPED_REPOS, examplesIn, repoCopy, type ShippedExample } from './helpers/repos.js';
import { execPath, startTestServer, type TestServer } from './helpers/server.js';

const GOLDEN = path.join(import.meta.dirname, 'golden');
const examples = examplesIn(SHIPPED_REPOS);
// Member order is part of the contract (§6): compare texts, which keep it, not objects.
const text = (manifest: unknown) => JSON.stringify(manifest, null, 2) + '\n';
const cases = examples.map((example) => [`${example.repository}/${example.collection}/${example.name}`, example] as const);
const referenceText = (example: ShippedExample, repos = SHIPPED_REPOS) =>
  text(referenceRender(path.join(repos, example.repository, example.collection), example.request as unknown as ExecRequest));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('every example of repos/ renders what the contract says, per the reference renderer', () => {
  it('finds the examples in repos/, a seed example for every collection among them', () => {
    const collections = new Set(examples.map((example) => `${example.repository}/${example.collection}`));
    const seeds = examples.filter((example) => example.name === 'seed').map((example) => `${example.repository}/${example.collection}`);
    expect(seeds).toEqual([...collections]);
  });

  it.each(cases)('%s: the server answers the reference manifest, members in the contract order', async (_, example) => {
    const response = await server.request(execPath(example.repository, example.collection), { method: 'POST', json: example.request });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(text(await response.json())).toBe(referenceText(example));
  });

  it.each(cases)('%s: the committed file under test/golden/ is the reference manifest', (name, example) => {
    const file = path.join(GOLDEN, `${name}.json`);
    expect(existsSync(file), `${file} exists: run npx vitest run test/golden.test.ts to write it, then read it`).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(referenceText(example));
  });
});

// What the shipped sections never do, planted in a copy of the demo repository: interpolation (numbers and
// booleans become text, spaces inside the braces optional), a digit segment indexing an array, `??` with
// both references defined, and an object left empty by removals.
const CONTRACT_FEATURES: Record<string, string> = {
  'demo-resources/settings/sections/data.json': JSON.stringify({
    facets: ['addon:data'],
    data: {
      endpoint: '{{ __SET_ID__.host }}:{{__SET_ID__.port}}',
      secure: 'tls={{ __SET_ID__.tls }}',
      first: '{{ __SET_ID__.hosts.0 }}',
      mode: '{{ __SET_ID__.spec.mode ?? __SET_ID__.mode }}',
      absent: '{{ __SET_ID__.absent }}',
    },
  }),
  'demo-resources/settings/sections/binarydata.json': JSON.stringify({
    facets: ['addon:binarydata'],
    binaryData: { blob: '{{ __SET_ID__.blob }}' },
  }),
  'demo-resources/settings/examples/basic.json': JSON.stringify({
    facets: ['addon:data', 'addon:binarydata'],
    values: {
      app: { metadata: { name: 'app' }, host: 'db', port: 5432, tls: true, hosts: ['a', 'b'], spec: { mode: 'fast' }, mode: 'slow' },
    },
  }),
  'demo-resources/settings/examples/fallbacks.json': JSON.stringify({
    facets: ['addon:data'],
    values: { other: { metadata: { name: 'other' } }, app: { metadata: { name: 'app' }, port: 80, mode: 'slow', blob: 'AA==' } },
    globalvars: { __SET_ID__: 'app' },
  }),
};

describe('contract features the shipped sections do not use render what the reference renderer says', () => {
  const repos = repoCopy(DEMO_REPOS, CONTRACT_FEATURES);
  let planted: TestServer;
  beforeAll(async () => {
    planted = await startTestServer({ dist: await buildInto(repos) });
  });
  afterAll(() => planted.close());

  const plantedCases = examplesIn(repos).map((example) => [example.name, example] as const);
  it.each(plantedCases)('%s: the server answers the reference manifest', async (_, example) => {
    const response = await planted.request(execPath(example.repository, example.collection), { method: 'POST', json: example.request });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(text(await response.json())).toBe(referenceText(example, repos));
  });
});
