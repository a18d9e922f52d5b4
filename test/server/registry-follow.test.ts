/**
 * A server that follows a real registry (BUNDLES_FROM), end to end: Debian's docker-registry, the
 * releases of dist/ pushed and signed by the real CLI, the real server process polling every second.
 * Each test follows a path of its own in the registry (oci://HOST/facetform-<what>), so it sees only
 * what it pushed there.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hasDockerRegistry, startDockerRegistry, type DockerRegistry } from '../helpers/docker-registry.js';
import { killServers, spawnServer } from '../helpers/process.js';
import {
  BEFORE_LATEST,
  collectionPath,
  exampleBody,
  exec,
  failedPolls,
  get,
  LATEST,
  listedReleases,
  logLines,
  POLL_SECONDS,
  push,
  readyz,
  RELEASES,
  REPOSITORY,
  SERVED_WITHIN,
  sleep,
  waitFor,
} from '../helpers/registry-following.js';
import { tempDir } from '../helpers/repos.js';
import { KEY } from '../helpers/server.js';
import { readConfig } from '../../src/server/config.js';

/** PEM files of an Ed25519 key (trusted) and an ECDSA P-256 key (not), made for this run. */
function writeKeys() {
  const dir = tempDir('facetform-keys-');
  const write = (name: string, key: KeyObject) => {
    const file = path.join(dir, name);
    writeFileSync(file, key.export({ type: name.endsWith('.pub.pem') ? 'spki' : 'pkcs8', format: 'pem' }));
    return file;
  };
  const trusted = generateKeyPairSync('ed25519');
  const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return {
    trusted: write('trusted.pem', trusted.privateKey),
    trustedPublic: write('trusted.pub.pem', trusted.publicKey),
    untrusted: write('untrusted.pem', other.privateKey),
  };
}

describe.skipIf(!hasDockerRegistry)('a server following a registry (BUNDLES_FROM)', () => {
  let registry: DockerRegistry;
  let keys: ReturnType<typeof writeKeys>;
  beforeAll(async () => {
    registry = await startDockerRegistry();
    keys = writeKeys();
  });
  afterEach(killServers);
  afterAll(() => registry?.stop());

  /** A server on an empty bundles folder that follows `place` every second, trusting the trusted key. */
  const follow = (place: string, env: Record<string, string> = {}) =>
    spawnServer({
      BUNDLES_DIR: tempDir('facetform-followed-'),
      BUNDLES_FROM: place,
      BUNDLES_FROM_INSECURE: 'true',
      TRUST_KEY_FILE: keys.trustedPublic,
      BUNDLES_POLL_SECONDS: String(POLL_SECONDS),
      API_KEYS: KEY,
      RATE_LIMIT: '100000/s',
      ...env,
    });

  it('serves the signed releases pushed before it started, from an empty bundles folder, and says the registry is reachable', async () => {
    const place = `${registry.place}-start`;
    for (const release of RELEASES) expect(await push(place, release, keys.trusted)).toContain(`:${release} pushed (manifest sha256:`);
    const server = await follow(place);

    expect(await listedReleases(server)).toEqual(RELEASES);
    expect(await exec(server, await exampleBody(server))).toEqual({ status: 200, release: LATEST });
    const ready = await readyz(server);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', registry: { reachable: true, pulled: RELEASES.length, refused: {} } });
  }, 120_000);

  it('serves a release pushed while under load within about one poll, with no failed request', async () => {
    const place = `${registry.place}-load`;
    for (const release of BEFORE_LATEST) await push(place, release, keys.trusted);
    const server = await follow(place);
    const body = await exampleBody(server);
    expect(await exec(server, body)).toEqual({ status: 200, release: BEFORE_LATEST.at(-1) });

    // Answers of the load by status and the release that gave them.
    const answers: Record<string, number> = {};
    // autocannon hands the headers with the names as sent.
    const releaseOf = (headers: Record<string, unknown> = {}) =>
      Object.entries(headers).find(([name]) => name.toLowerCase() === 'x-facetform-release')?.[1];
    let loadEnded = false;
    // autocannon's instance is a thenable without finally.
    const load = Promise.resolve(
      autocannon({
        url: server.url,
        connections: 10,
        duration: 8,
        requests: [
          {
            method: 'POST',
            path: `${collectionPath}/exec`,
            headers: { 'content-type': 'application/json', 'x-apikey': KEY },
            body,
            onResponse: (status, _body, _context, headers) => {
              const answer = `${status} ${String(releaseOf(headers))}`;
              answers[answer] = (answers[answer] ?? 0) + 1;
            },
          },
        ],
      }),
    ).finally(() => (loadEnded = true));
    await sleep(1500);
    const pushStarted = performance.now();
    expect(await push(place, LATEST, keys.trusted)).toContain(`:${LATEST} pushed (manifest sha256:`);
    const pushSeconds = (performance.now() - pushStarted) / 1000;
    const appeared = await waitFor(
      async () => ((await exec(server, body)).release === LATEST ? true : undefined),
      SERVED_WITHIN,
      `exec answered by ${LATEST}`,
    );
    expect(loadEnded, 'the new release came only after the load').toBe(false);
    const result = await load;

    expect(result.non2xx, JSON.stringify(answers)).toBe(0);
    expect(result.errors + result.timeouts).toBe(0);
    // The load itself met the old release and then the new one.
    expect(Object.keys(answers).sort()).toEqual([`200 ${BEFORE_LATEST.at(-1)}`, `200 ${LATEST}`].sort());
    expect(await exec(server, body)).toEqual({ status: 200, release: LATEST });
    expect(await listedReleases(server)).toEqual(RELEASES);
    console.info(
      `registry-follow: ${LATEST} pushed in ${pushSeconds.toFixed(2)} s, served ${appeared.seconds.toFixed(2)} s after; load: ${result.requests.total} requests, ` +
        `${JSON.stringify(answers)}, ${result.non2xx} non-2xx, ${result.errors} errors`,
    );
  }, 120_000);

  it('refuses a release signed by an untrusted key or not signed, keeps serving the one before, and serves it once the trusted key signs it', async () => {
    expect(RELEASES.length, `${REPOSITORY} needs three releases in dist/`).toBeGreaterThanOrEqual(3);
    const [badlySigned, unsigned] = RELEASES.slice(-2) as [string, string];
    const trusted = RELEASES.slice(0, -2);
    const place = `${registry.place}-trust`;
    for (const release of trusted) await push(place, release, keys.trusted);
    await push(place, badlySigned, keys.untrusted);
    await push(place, unsigned);
    const server = await follow(place);
    const reference = (release: string) => `${registry.host}/facetform-trust/${REPOSITORY}/v1:${release}`;

    const body = await exampleBody(server);
    expect(await exec(server, body)).toEqual({ status: 200, release: trusted.at(-1) });
    expect(await listedReleases(server)).toEqual(trusted);
    const { body: ready } = await readyz(server);
    expect(Object.keys(ready.registry.refused).sort()).toEqual([reference(badlySigned), reference(unsigned)].sort());
    expect(ready.registry.refused[reference(badlySigned)]).toMatch(/^it is signed by key sha256:[0-9a-f]{64}, which is not a trusted key$/);
    expect(ready.registry.refused[reference(unsigned)]).toContain('it is not signed');

    const signed = await push(place, badlySigned, keys.trusted);
    expect(signed).toMatch(
      new RegExp(
        `:${badlySigned.replaceAll('.', '\\.')} already there \\(manifest sha256:[0-9a-f]{64}, bundle sha256:[0-9a-f]{64}, signed by key sha256:`,
      ),
    );
    const appeared = await waitFor(
      async () => ((await exec(server, body)).release === badlySigned ? true : undefined),
      SERVED_WITHIN,
      `exec answered by ${badlySigned}`,
    );
    const { body: after } = await readyz(server);
    expect(Object.keys(after.registry.refused)).toEqual([reference(unsigned)]);
    // Each refusal is logged once, not once per poll.
    expect(logLines(server, 'registry: release refused').map((line) => line.release)).toEqual(
      expect.arrayContaining([reference(badlySigned), reference(unsigned)]),
    );
    expect(logLines(server, 'registry: release refused')).toHaveLength(2);
    console.info(`registry-follow: ${badlySigned}, signed again by the trusted key, served after ${appeared.seconds.toFixed(2)} s`);
  }, 120_000);

  it('keeps serving while the registry is down, says so in /readyz and /metrics, logs the outage once, and sees it come back', async () => {
    const own = await startDockerRegistry();
    try {
      for (const release of RELEASES) await push(own.place, release, keys.trusted);
      const server = await follow(own.place);
      const body = await exampleBody(server);
      expect(await exec(server, body)).toEqual({ status: 200, release: LATEST });

      await own.kill();
      // Two polls or more fail: the outage is logged at the first only.
      const { value: metrics } = await waitFor(
        async () => {
          const scraped = await failedPolls(server);
          return scraped.failed >= 2 ? scraped : undefined;
        },
        POLL_SECONDS * 2 + 4,
        'two failed polls',
      );
      expect(metrics.text).toMatch(/^facetform_registry_up 0$/m);
      expect(await exec(server, body)).toEqual({ status: 200, release: LATEST });
      expect(await listedReleases(server)).toEqual(RELEASES);
      const down = await readyz(server);
      expect(down.status).toBe(200);
      expect(down.body).toMatchObject({ status: 'degraded', registry: { reachable: false } });
      expect(down.body.detail).toContain(`${own.place} cannot be read`);
      await sleep(500); // the log is written in batches every 250 ms
      expect(logLines(server, 'registry: poll failed')).toHaveLength(1);

      await own.restart();
      const back = await waitFor(
        async () => ((await readyz(server)).body.registry.reachable === true ? true : undefined),
        // Failed polls are retried ever more slowly (twice the wait after each): two or three by now.
        POLL_SECONDS * 8 + 4,
        'the registry reachable again',
      );
      const { body: ready } = await readyz(server);
      expect(ready.status).toBe('ready');
      expect(ready.registry.error).toBeUndefined();
      await waitFor(() => (logLines(server, 'registry: reachable again').length === 1 ? true : undefined), 2, 'the log line');
      expect(logLines(server, 'registry: poll failed')).toHaveLength(1);
      expect(await (await get(server, '/metrics')).text()).toMatch(/^facetform_registry_up 1$/m);
      console.info(
        `registry-follow: ${metrics.failed} failed polls logged once; reachable again ${back.seconds.toFixed(2)} s after restart`,
      );
    } finally {
      await own.stop();
    }
  }, 120_000);

  it('follows a registry behind basic auth with REGISTRY_USERNAME and REGISTRY_PASSWORD, and with a wrong password serves its folder and says why the registry cannot be read', async () => {
    const auth = { username: 'facetform-ci', password: 'right-password-123' };
    const guarded = await startDockerRegistry({ auth });
    try {
      const credentials = { REGISTRY_USERNAME: auth.username, REGISTRY_PASSWORD: auth.password };
      for (const release of RELEASES) await push(guarded.place, release, keys.trusted, credentials);
      const folder = tempDir('facetform-followed-');
      const server = await follow(guarded.place, { BUNDLES_DIR: folder, ...credentials });
      const body = await exampleBody(server);
      expect(await exec(server, body)).toEqual({ status: 200, release: LATEST });
      expect((await readyz(server)).body).toMatchObject({ status: 'ready', registry: { reachable: true, pulled: RELEASES.length } });
      await killServers();

      const refused = await follow(guarded.place, { BUNDLES_DIR: folder, ...credentials, REGISTRY_PASSWORD: 'wrong-password-456' });
      const { value: ready } = await waitFor(
        async () => {
          const answer = await readyz(refused);
          return answer.body.registry.reachable === false ? answer : undefined;
        },
        POLL_SECONDS + 4,
        'the first poll to fail',
      );
      expect(ready.status).toBe(200);
      expect(ready.body.status).toBe('degraded');
      expect(ready.body.detail).toContain(`${guarded.place} cannot be read`);
      expect(ready.body.registry.error).toContain(
        `${guarded.host} refused GET /v2/_catalog (401): as ${auth.username}; check the user name and password`,
      );
      expect(await exec(refused, body)).toEqual({ status: 200, release: LATEST });
      expect(await listedReleases(refused)).toEqual(RELEASES);

      // With nothing in its folder, it starts all the same, and is not ready until it can read the registry.
      const empty = await follow(guarded.place, { ...credentials, REGISTRY_PASSWORD: 'wrong-password-456' });
      const waiting = await get(empty, '/readyz');
      expect(waiting.status).toBe(503);
      expect(((await waiting.json()) as { detail: string }).detail).toBe(
        `the server is not ready: no release is served yet, and ${guarded.place} cannot be read (${ready.body.registry.error})`,
      );
      console.info(`registry-follow: with a wrong password, /readyz says: ${ready.body.registry.error}`);
    } finally {
      await guarded.stop();
    }
  }, 120_000);

  it('with WORKERS=2, has every worker serve a release pushed after start', async () => {
    const place = `${registry.place}-workers`;
    for (const release of BEFORE_LATEST) await push(place, release, keys.trusted);
    const server = await follow(place, { WORKERS: '2', LOG_LEVEL: 'info' });
    const body = await exampleBody(server);
    expect(await exec(server, body)).toEqual({ status: 200, release: BEFORE_LATEST.at(-1) });

    await push(place, LATEST, keys.trusted);
    await waitFor(async () => ((await exec(server, body)).release === LATEST ? true : undefined), SERVED_WITHIN, `${LATEST} served`);
    // The primary tells both workers at once; the second may take a few milliseconds more to reload.
    await sleep(300);
    // Each over a new connection, which the primary hands to the workers in turn.
    const ids = Array.from({ length: 10 }, (_, count) => `after-push-${count}`);
    const answers = [];
    for (const id of ids) answers.push(await exec(server, body, id));
    expect(answers).toEqual(ids.map(() => ({ status: 200, release: LATEST })));
    // Which process answered each, from the request log.
    const { value: pids } = await waitFor(
      () => {
        const lines = logLines(server, 'request').filter((line) => ids.includes(line.requestId as string));
        return lines.length === ids.length ? new Set(lines.map((line) => line.pid)) : undefined;
      },
      3,
      'the request log lines',
    );
    expect(pids.size).toBe(2);
  }, 120_000);
});

describe('the settings of a server that follows a registry', () => {
  /** What readConfig says of `env` beside a good BUNDLES_FROM, or undefined when it takes it. */
  const refusal = (env: Record<string, string>) => {
    try {
      readConfig({ BUNDLES_FROM: 'oci://registry.example.com/platform', ...env });
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('refuses a trust key setting that would check nothing or cannot be read, naming TRUST_KEY_FILE', async () => {
    const dir = tempDir();
    const file = (name: string, text: string) => {
      writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const ed = generateKeyPairSync('ed25519');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(refusal({ TRUST_KEY_FILE: '' })).toMatch(/^TRUST_KEY_FILE: is empty/);
    expect(refusal({ TRUST_KEY_FILE: path.join(dir, 'missing.pub') })).toMatch(
      /^TRUST_KEY_FILE: .*missing\.pub: cannot be read \(ENOENT\)/,
    );
    expect(refusal({ TRUST_KEY_FILE: file('private.pem', ed.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string) })).toContain(
      'holds no PEM public key',
    );
    expect(refusal({ TRUST_KEY_FILE: file('garbage.pub', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n') })).toContain(
      'garbage.pub: public key 1 cannot be read',
    );
    expect(refusal({ TRUST_KEY_FILE: file('rsa.pub', rsa.publicKey.export({ type: 'spki', format: 'pem' }) as string) })).toContain(
      'holds a key of type RSA; sign with ECDSA P-256 or Ed25519',
    );
    expect(refusal({ TRUST_KEY_FILE: file('ed.pub', ed.publicKey.export({ type: 'spki', format: 'pem' }) as string) })).toBeUndefined();
    // The whole start, as a user meets it: exit 2 and the setting named, no stack.
    const { failedStart } = await import('../helpers/process.js');
    const started = await failedStart({ BUNDLES_FROM: 'oci://127.0.0.1:1/x', TRUST_KEY_FILE: '', API_KEYS: KEY });
    expect(started.code).toBe(2);
    expect(started.stderr).toContain('configuration error: TRUST_KEY_FILE: is empty');
    expect(started.stderr).not.toContain('    at ');
  });

  it('refuses registry settings without BUNDLES_FROM, and addresses, intervals and repository lists it cannot use', () => {
    expect(() => readConfig({ TRUST_KEY_FILE: 'x' })).toThrow('TRUST_KEY_FILE: only has a meaning with BUNDLES_FROM=oci://HOST/PATH');
    expect(refusal({ BUNDLES_FROM: 'https://registry.example.com/platform' })).toContain(
      'BUNDLES_FROM: "https://registry.example.com/platform" is not a registry address',
    );
    expect(refusal({ BUNDLES_POLL_SECONDS: '0' })).toContain('BUNDLES_POLL_SECONDS: "0" is not a whole number from 1 to 86400');
    expect(refusal({ BUNDLES_FROM_REPOSITORIES: 'service-resources' })).toContain('is not <repository>/<apiVersion>');
    expect(refusal({ BUNDLES_FROM_INSECURE: 'yes' })).toContain('BUNDLES_FROM_INSECURE: "yes" is not true or false');
  });
});
