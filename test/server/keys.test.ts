/** X-APIKEY: none, wrong, right, two keys, key files; the key is never logged or echoed. */
import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiKeys, keyFileEntry, parseKeyFile } from '../../src/server/api-keys.js';
import { readConfig } from '../../src/server/config.js';
import { tempDir } from '../helpers/repos.js';
import { BASE, problemOf, startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const DISCOVERY = `${BASE}/service-resources/v1/resources/collections`;

describe('API keys', () => {
  it('refuses a request without a key, with a wrong key, or with the key in the query string', async () => {
    server = await startTestServer({ keys: ApiKeys.fromPlainKeys(['right-key-1234']) });
    expect((await server.request(DISCOVERY, { headers: { 'X-APIKEY': '' } })).status).toBe(401);
    expect((await server.request(DISCOVERY, { headers: { 'X-APIKEY': 'wrong-key-1234' } })).status).toBe(401);
    expect(
      (await server.request(`${DISCOVERY}?X-APIKEY=right-key-1234&apikey=right-key-1234`, { headers: { 'X-APIKEY': '' } })).status,
    ).toBe(401);
    expect((await server.request(DISCOVERY, { headers: { 'X-APIKEY': 'right-key-1234' } })).status).toBe(200);
  });

  it('refuses an empty, a 10 KB and a near-miss key the same way', async () => {
    server = await startTestServer({ keys: ApiKeys.fromPlainKeys(['right-key-1234']) });
    for (const key of ['', ' ', 'k'.repeat(10 * 1024), 'right-key-123', 'right-key-12345', 'RIGHT-KEY-1234']) {
      const response = await server.request(DISCOVERY, { headers: { 'X-APIKEY': key } });
      expect(response.status).toBe(401);
      expect((await problemOf(response)).detail).toBe('send a valid API key in the X-APIKEY header (or as Authorization: Bearer)');
    }
  });

  it('challenges with WWW-Authenticate naming the header a key goes in, and takes the key as a Bearer token too', async () => {
    server = await startTestServer({ keys: ApiKeys.fromPlainKeys(['right-key-1234']) });
    const refused = await server.request(DISCOVERY, { headers: { 'X-APIKEY': '' } });
    expect(refused.status).toBe(401);
    // RFC 9110 §11.6.1: challenges, each an auth-scheme and its auth-params (name="value").
    const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
    const challenges = refused.headers
      .get('www-authenticate')!
      .split(new RegExp(`, (?=${token} ${token}=)`))
      .map((challenge) => {
        const [, scheme, params] = new RegExp(`^(${token}) (.*)$`).exec(challenge)!;
        return {
          scheme: scheme!,
          params: Object.fromEntries(
            [...params!.matchAll(new RegExp(`(${token})="([^"]*)"(?:, |$)`, 'g'))].map((match) => [match[1]!.toLowerCase(), match[2]!]),
          ),
        };
      });
    expect(challenges.map((challenge) => challenge.scheme)).toEqual(['ApiKey', 'Bearer']);
    for (const challenge of challenges) expect(challenge.params.realm).toBe('facetform');
    expect(
      (await server.request(DISCOVERY, { headers: { 'X-APIKEY': '', [challenges[0]!.params.header!]: 'right-key-1234' } })).status,
    ).toBe(200);
    expect((await server.request(DISCOVERY, { headers: { 'X-APIKEY': '', Authorization: 'Bearer right-key-1234' } })).status).toBe(200);
    for (const authorization of ['Bearer wrong-key-1234', 'Basic cmlnaHQta2V5LTEyMzQ=', 'right-key-1234', 'Bearer']) {
      expect((await server.request(DISCOVERY, { headers: { 'X-APIKEY': '', Authorization: authorization } })).status, authorization).toBe(
        401,
      );
    }
  });

  it('accepts the header in any letter case', async () => {
    server = await startTestServer({ keys: ApiKeys.fromPlainKeys(['right-key-1234']) });
    expect((await server.request(DISCOVERY, { headers: { 'x-apikey': 'right-key-1234' } })).status).toBe(200);
    expect((await server.request(DISCOVERY, { headers: { 'X-ApiKey': 'right-key-1234' } })).status).toBe(200);
  });

  it('accepts each of two keys and logs the name of the one used, never the key', async () => {
    server = await startTestServer({ keys: ApiKeys.fromPlainKeys(['first-key-1234', 'second-key-5678']) });
    expect((await server.request(DISCOVERY, { headers: { 'X-APIKEY': 'first-key-1234' } })).status).toBe(200);
    expect((await server.request(DISCOVERY, { headers: { 'X-APIKEY': 'second-key-5678' } })).status).toBe(200);
    expect((await server.request(DISCOVERY, { headers: { 'X-APIKEY': 'third-key-9012' } })).status).toBe(401);
    const requests = server.logs.filter((line) => line.msg === 'request');
    expect(requests.map((line) => [line.status, line.key])).toEqual([
      [200, 'API_KEYS#1'],
      [200, 'API_KEYS#2'],
      [401, undefined],
    ]);
    const everything = JSON.stringify(server.logs);
    for (const key of ['first-key-1234', 'second-key-5678', 'third-key-9012']) expect(everything).not.toContain(key);
  });

  it('never echoes a presented key in an answer', async () => {
    server = await startTestServer({ keys: ApiKeys.fromPlainKeys(['right-key-1234']) });
    const problem = await problemOf(await server.request(DISCOVERY, { headers: { 'X-APIKEY': 'guess-key-4321' } }));
    expect(JSON.stringify(problem)).not.toContain('guess-key-4321');
  });

  it('reads named keys from a file that holds only their sha256', async () => {
    const file = path.join(tempDir(), 'keys');
    writeFileSync(file, `# team keys\n${keyFileEntry('team-a', 'team-a-secret-1')}\n\n${keyFileEntry('ci', 'ci-secret-2222')}\n`);
    server = await startTestServer({ keys: ApiKeys.fromFile(file) });
    expect((await server.request(DISCOVERY, { headers: { 'X-APIKEY': 'ci-secret-2222' } })).status).toBe(200);
    expect(server.logs.find((line) => line.msg === 'request')!.key).toBe('ci');
  });

  it('explains a malformed key file line', () => {
    expect(() => parseKeyFile('ok sha256:' + 'a'.repeat(64) + '\nbad line\n', 'keys.txt')).toThrow(
      'keys.txt:2: expected "NAME sha256:<64 hex digits>"',
    );
    expect(() => parseKeyFile(`x sha256:${'a'.repeat(64)}\nx sha256:${'b'.repeat(64)}`, 'k')).toThrow('k:2: key name x is used twice');
  });

  it('refuses a key file that holds no key: empty, or comments and blank lines only', () => {
    for (const text of ['', '\n\n', '# keys of team a\n\n'])
      expect(() => parseKeyFile(text, 'keys.txt')).toThrow('keys.txt: holds no key, so every request would be refused (401)');
  });

  it('needs no key for health and readiness, but does for metrics and the OpenAPI document unless OPEN_ROUTES opens them', async () => {
    server = await startTestServer();
    for (const route of ['/healthz', '/readyz'])
      expect((await server.request(route, { headers: { 'X-APIKEY': '' } })).status, route).toBe(200);
    for (const route of ['/metrics', '/openapi.json']) {
      expect((await server.request(route, { headers: { 'X-APIKEY': '' } })).status, route).toBe(401);
      expect((await server.request(route)).status, route).toBe(200);
    }
    await server.close();
    server = await startTestServer({ state: { openRoutes: readConfig({ OPEN_ROUTES: 'metrics, openapi' }).openRoutes } });
    for (const route of ['/metrics', '/openapi.json'])
      expect((await server.request(route, { headers: { 'X-APIKEY': '' } })).status, route).toBe(200);
    expect(() => readConfig({ OPEN_ROUTES: 'metrics,discovery' })).toThrow(
      'OPEN_ROUTES: "discovery" cannot be opened; name metrics or openapi',
    );
  });

  it('answers 401 without a key for an /apis/ path reached through a public one (/console/../apis/…), as for any /apis/ path', async () => {
    server = await startTestServer();
    const url = new URL(server.url);
    // As sent, not normalised (fetch would resolve the dots itself): a proxy in front may normalise it to /apis/repos.
    const status = (rawPath: string) =>
      new Promise<number>((resolve, reject) => {
        httpRequest({ host: url.hostname, port: url.port, path: rawPath, headers: { 'X-APIKEY': '' } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        })
          .on('error', reject)
          .end();
      });
    for (const rawPath of [
      '/apis/repos',
      '/console/../apis/repos',
      '/console/%2e%2e/apis/repos',
      '/console/./../apis/repos',
      '/console/..%2fapis/repos',
      '/console/..\\apis/repos',
      '/console/..;/apis/repos',
    ])
      expect(await status(rawPath), rawPath).toBe(401);
    expect(await status('/console/console.css'), 'the console assets stay public').toBe(200);
  });
});
