/**
 * Golden output whose expected side does not come from the product: every example of repos/ is rendered
 * by the real server and by the reference renderer of test/helpers/reference-render.ts, written from the
 * contract alone. test/golden/ (written by the product through toMatchFileSnapshot) is checked against
 * the reference too, so a snapshot updated with a wrong answer fails here.
 *
 * Not covered by the reference, by design: input validation and `$values` refinements (schema tests),
 * required values and errors (render-contract, problems), the check of answers against Kubernetes or a
 * CRD (golden.test.ts, kubernetes-fidelity), YAML output (kubectl-yaml).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRender, type ExecRequest } from './helpers/reference-render.js';
import { SHIPPED_REPOS, examplesIn, type ShippedExample } from './helpers/repos.js';
import { execPath, startTestServer, type TestServer } from './helpers/server.js';

const GOLDEN = path.join(import.meta.dirname, 'golden');
const examples = examplesIn(SHIPPED_REPOS);
// Member order is part of the contract (§6): compare texts, which keep it, not objects.
const text = (manifest: unknown) => JSON.stringify(manifest, null, 2) + '\n';
const cases = examples.map((example) => [`${example.repository}/${example.collection}/${example.name}`, example] as const);
const referenceText = (example: ShippedExample) =>
  text(referenceRender(path.join(SHIPPED_REPOS, example.repository, example.collection), example.request as unknown as ExecRequest));

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

  it.each(cases)(
    '%s: the server answers the reference manifest, members in the contract order',
    async (_, example) => {
      const response = await server.request(execPath(example.repository, example.collection), { method: 'POST', json: example.request });
      expect(response.status, await response.clone().text()).toBe(200);
      expect(text(await response.json())).toBe(referenceText(example));
    },
  );

  it.each(cases)(
    '%s: the committed file under test/golden/ is the reference manifest',
    (name, example) => {
      const file = path.join(GOLDEN, `${name}.json`);
      expect(existsSync(file), `${file} exists: run npx vitest run test/golden.test.ts to write it, then read it`).toBe(true);
      expect(readFileSync(file, 'utf8')).toBe(referenceText(example));
    },
  );
});
