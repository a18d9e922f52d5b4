import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SCHEMAS_DIR } from '../../src/bundle/dist-layout.js';
import { readConfig } from '../../src/server/config.js';
import { filesUnder } from '../helpers/editor-schemas.js';
import { problemOf, shippedBundles, startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const NO_KEY = { headers: { 'X-APIKEY': '' } };

describe('GET /schemas/…', () => {
  it('serves every schema the build wrote to dist/schemas/, byte for byte, as application/schema+json', async () => {
    const dist = await shippedBundles();
    const files = filesUnder(path.join(dist, SCHEMAS_DIR));
    expect(files.length).toBeGreaterThan(3);
    server = await startTestServer({ dist });
    for (const file of files) {
      const response = await server.request(`/schemas/${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type'), file).toBe('application/schema+json');
      expect(await response.text(), file).toBe(readFileSync(path.join(dist, SCHEMAS_DIR, file), 'utf8'));
    }
  });

  it('answers 304 to a client that holds the same ETag', async () => {
    server = await startTestServer();
    const first = await server.request('/schemas/section.json');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    const again = await server.request('/schemas/section.json', { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
  });

  it('needs the key unless OPEN_ROUTES names schemas, which opens every schema and nothing else', async () => {
    server = await startTestServer();
    expect((await server.request('/schemas/repository.json', NO_KEY)).status).toBe(401);
    await server.close();
    server = await startTestServer({ state: { openRoutes: readConfig({ OPEN_ROUTES: 'schemas' }).openRoutes } });
    const dist = await shippedBundles();
    for (const file of filesUnder(path.join(dist, SCHEMAS_DIR)))
      expect((await server.request(`/schemas/${file}`, NO_KEY)).status, file).toBe(200);
    for (const route of ['/schemas', '/schemasx/repository.json', '/openapi.json', '/metrics', '/apis/repos'])
      expect((await server.request(route, NO_KEY)).status, route).toBe(401);
  });

  it('answers an unknown schema with a 404 naming what lies beside it', async () => {
    server = await startTestServer();
    const dist = await shippedBundles();
    const [vendor] = filesUnder(path.join(dist, SCHEMAS_DIR))
      .filter((file) => file.includes('/'))
      .map((file) => file.split('/')[0]);
    const response = await server.request(`/schemas/${vendor}/no-such-repository/v1/latest/x.request.json`);
    expect(response.status).toBe(404);
    const problem = await problemOf(response);
    expect(problem.detail).toContain(`${vendor}/batch-request.json`);
  });
});
