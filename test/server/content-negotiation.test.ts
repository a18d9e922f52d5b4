/** Accept (RFC 9110 §12.5.1): exec and batch answer JSON or YAML as asked; what the server cannot give is a 406. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesIn, ROOT } from '../helpers/repos.js';
import { execPath, problemOf, startTestServer, type TestServer } from '../helpers/server.js';

const BATCH = '/apis/repos/facetform/exec';
const APP = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/batch/app.json'), 'utf8'));
const [example] = examplesIn();
const EXEC = execPath(example!.repository, example!.collection);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const post = (target: string, body: unknown, accept?: string) =>
  server.request(target, { method: 'POST', json: body, headers: accept === undefined ? {} : { Accept: accept } });

describe('content negotiation', () => {
  for (const [route, target, body] of [
    ['exec', EXEC, example!.request],
    ['batch', BATCH, APP],
  ] as const) {
    it(`${route}: answers YAML for Accept: application/yaml, the same bytes as format=yaml`, async () => {
      const asked = await post(target, body, 'application/yaml');
      const byFormat = await post(`${target}?format=yaml`, body);
      expect(asked.status).toBe(200);
      expect(asked.headers.get('content-type')).toBe('application/yaml');
      expect(asked.headers.get('vary')).toBe('Accept');
      expect(await asked.text()).toBe(await byFormat.text());
    });

    it(`${route}: weighs q-values and wildcards, and answers JSON when Accept says nothing`, async () => {
      const json = await (await post(`${target}?format=json`, body)).text();
      const yaml = await (await post(`${target}?format=yaml`, body)).text();
      const cases: Array<[accept: string | undefined, expected: string]> = [
        [undefined, json],
        ['*/*', json],
        ['application/*', json],
        ['application/json;q=0.5, application/yaml', yaml],
        ['application/yaml;q=0, */*', json],
        ['text/html, application/yaml;q=0.1', yaml],
      ];
      for (const [accept, expected] of cases) expect(await (await post(target, body, accept)).text(), `Accept: ${accept}`).toBe(expected);
    });

    it(`${route}: refuses an Accept it cannot meet with a 406 that lists what it can give`, async () => {
      const response = await post(target, body, 'text/html, application/xml;q=0.9');
      expect(response.status).toBe(406);
      expect(await problemOf(response)).toMatchObject({
        type: '/problems/not-acceptable',
        available: ['application/json', 'application/yaml'],
      });
    });
  }

  it('lets the format query parameter win over Accept', async () => {
    const response = await post(`${EXEC}?format=json`, example!.request, 'application/yaml');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('refuses a discovery request whose Accept excludes JSON, and serves one that allows it', async () => {
    const refused = await server.request('/apis/repos', { headers: { Accept: 'application/yaml' } });
    expect(refused.status).toBe(406);
    expect(await problemOf(refused)).toMatchObject({ available: ['application/json'] });
    expect((await server.request('/apis/repos', { headers: { Accept: 'application/json, */*;q=0.1' } })).status).toBe(200);
  });

  it('serves a schema (application/schema+json) to a client that asks for JSON, and refuses one that asks for YAML', async () => {
    const schema = '/schemas/repository.json';
    expect((await server.request(schema, { headers: { Accept: 'application/json' } })).status).toBe(200);
    expect((await server.request(schema, { headers: { Accept: 'application/schema+json' } })).status).toBe(200);
    expect((await server.request(schema, { headers: { Accept: 'application/yaml' } })).status).toBe(406);
  });

  it('answers errors as problem+json whatever Accept says', async () => {
    const response = await server.request(EXEC, { method: 'POST', json: { values: 'no' }, headers: { Accept: 'application/yaml' } });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });
});
