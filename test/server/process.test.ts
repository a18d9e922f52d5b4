/** The server process: configuration, first-run key, start-up build, logs and graceful shutdown. */
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBundles } from '../../src/bundle/load.js';
import { BundleRegistry } from '../../src/bundle/registry.js';
import { describeServed } from '../../src/cli/serve-command.js';
import { keyFileEntry } from '../../src/server/api-keys.js';
import { readConfig } from '../../src/server/config.js';
import { ensureBuilt, staleRepositories } from '../../src/server/bundles.js';
import { serverContainer } from '../helpers/deployment.js';
import { failedStart, killServers, spawnServer, type ServerProcess } from '../helpers/process.js';
import { declaredRelease, repoCopy, repositoriesIn, ROOT, SHIPPED_REPOS, tempDir } from '../helpers/repos.js';
import { execPath, shippedBundles } from '../helpers/server.js';

let dist: string;
let running: ServerProcess | undefined;
beforeAll(async () => {
  dist = await shippedBundles();
});
afterEach(async () => {
  await killServers();
  running = undefined;
});

const SEED = { facets: ['addon:ports'], values: { web: { metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } } } };
/** Sends SIGHUP and waits until the log has `count` lines with `text`. */
async function hangUp(server: ServerProcess, text: string, count: number): Promise<void> {
  server.child.kill('SIGHUP');
  const lines = () =>
    server
      .stdout()
      .split('\n')
      .filter((line) => line.includes(text)).length;
  for (let waited = 0; lines() < count && waited < 5000; waited += 25) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(lines(), server.stdout() + server.stderr()).toBe(count);
}

const exec = (url: string, key: string) =>
  fetch(url + execPath('service-resources', 'service'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-APIKEY': key },
    body: JSON.stringify(SEED),
  });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('facetform serve', () => {
  it('with no key configured, makes one, prints it once, and accepts it', async () => {
    running = await spawnServer({ BUNDLES_DIR: dist });
    const key = /Send it as X-APIKEY:\n\n {4}(ff_[A-Za-z0-9_-]{43})\n/.exec(running.stderr())![1]!;
    expect(running.stderr().split(key)).toHaveLength(2);
    expect(running.stderr()).toContain('set API_KEYS=key1,key2');
    expect((await exec(running.url, key)).status).toBe(200);
    expect((await exec(running.url, 'ff_not-the-key')).status).toBe(401);
    expect(running.stdout()).not.toContain(key);
  });

  it('serves with API_KEYS on PORT, logging one JSON line per request with the key name only', async () => {
    const port = await freePort();
    running = await spawnServer({ BUNDLES_DIR: dist, API_KEYS: 'k-one-secret,k-two-secret', PORT: String(port) });
    expect(running.url).toBe(`http://127.0.0.1:${port}`);
    expect(running.stderr()).not.toContain('No API key is configured');
    expect((await exec(running.url, 'k-two-secret')).status).toBe(200);
    // Log lines are written in batches, at least every 250 ms.
    for (let waited = 0; !running.stdout().includes('"msg":"request"') && waited < 3000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = running
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.find((line) => line.msg === 'request')).toMatchObject({
      method: 'POST',
      status: 200,
      key: 'API_KEYS#2',
      route: '/apis/repos/:vendor/:repository/:apiVersion/resources/collections/:collection/exec',
    });
    expect(running.stdout()).not.toContain('k-two-secret');
  });

  it('stops at start with a message naming a bad setting', async () => {
    const emptyKeyFile = path.join(tempDir(), 'keys');
    writeFileSync(emptyKeyFile, '# no keys yet\n');
    for (const [env, message] of [
      [{ PORT: 'eighty' }, 'configuration error: PORT: "eighty" is not a whole number from 0 to 65535'],
      [{ LOG_LEVEL: 'loud' }, 'configuration error: LOG_LEVEL: "loud" is not one of fatal, error, warn, info, debug, trace, silent'],
      [{ BUNDLES_DIR: '/no/such/dir' }, 'configuration error: BUNDLES_DIR: folder /no/such/dir does not exist'],
      [{ API_KEYS: 'short' }, 'configuration error: API_KEYS: every comma-separated key must have at least 8 characters'],
      [{ API_KEYS_FILE: dist }, `API_KEYS_FILE: ${dist}: cannot be read (EISDIR); it must be a file of \`NAME sha256:HEX\` lines`],
      [{ API_KEYS_FILE: emptyKeyFile }, `API_KEYS_FILE: ${emptyKeyFile}: holds no key, so every request would be refused (401)`],
    ] as const) {
      const result = await failedStart({ BUNDLES_DIR: dist, ...env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toContain('    at ');
    }
  });

  it('refuses to start on a variable that looks like a misspelt setting that is not set, saying which was meant, and ignores unrelated ones', async () => {
    for (const [name, setting] of [
      ['APIKEYS', 'API_KEYS'],
      ['LOGLEVEL', 'LOG_LEVEL'],
      ['MAX_ITEM', 'MAX_ITEMS'],
      ['workers', 'WORKERS'],
    ] as const) {
      const result = await failedStart({ BUNDLES_DIR: dist, [name]: 'some-long-key' });
      expect(result.code, name).toBe(2);
      expect(result.stderr).toContain(
        `configuration error: ${name}: is not a setting; did you mean "${setting}"? Set ${setting}, or unset ${name}`,
      );
      expect(result.stderr).not.toContain('    at ');
    }
    // Set beside the setting it resembles, or far from every setting, a variable is someone else's.
    const unrelated = {
      APIKEYS: 'x',
      HOME: '/root',
      HOSTNAME: 'box',
      EDITOR: 'vi',
      LOGNAME: 'me',
      REDIS_PORT: 'tcp://10.0.0.1:6379',
      KUBERNETES_SERVICE_HOST: '10.0.0.1',
      NODE_OPTIONS: '',
    };
    expect(readConfig({ API_KEYS: 'some-long-key', ...unrelated }).warnings).toEqual([]);
    // API_KEY is what the README has clients export: said, not refused.
    running = await spawnServer({ BUNDLES_DIR: dist, API_KEY: 'the-client-key' });
    expect(running.stderr()).toContain(
      'facetform serve: warning: API_KEY is not a setting, so the server ignores it; did you mean "API_KEYS"?',
    );
    expect(running.stderr()).toContain('No API key is configured');
  });

  it('says at start how many repositories, releases and collections it serves, each counted once and in the right number', async () => {
    const committed = path.join(ROOT, 'dist');
    const index = JSON.parse(readFileSync(path.join(committed, 'index.json'), 'utf8')) as {
      bundles: Array<{ repository: string; collections: string[] }>;
    };
    const repositories = new Set(index.bundles.map((entry) => entry.repository)).size;
    const collections = new Set(
      index.bundles.flatMap((entry) => entry.collections.map((collection) => `${entry.repository}/${collection}`)),
    ).size;
    running = await spawnServer({ BUNDLES_DIR: committed, API_KEYS: 'some-long-key' });
    expect(running.stderr()).toContain(
      `facetform serving ${repositories} repositories (${index.bundles.length} releases, ${collections} collections) on ${running.url}\n`,
    );
    // One repository of one release and one collection is said in the singular.
    const [first] = loadBundles(dist);
    const one = { ...first!, bundle: { ...first!.bundle, collections: first!.bundle.collections.slice(0, 1) } };
    expect(describeServed(new BundleRegistry([one]))).toBe('1 repository (1 release, 1 collection)');
  });

  it('says which port is taken, and prints no key for a run that never listened', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const result = await failedStart({ BUNDLES_DIR: dist, API_KEYS: 'some-long-key', PORT: String(port) });
      expect(result.stderr).toContain(`cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
      // With no key configured, the key made for the run is printed only once the server listens.
      const keyless = await failedStart({ BUNDLES_DIR: dist, PORT: String(port) });
      expect(keyless.stderr).toContain(`cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
      expect(keyless.stderr).not.toContain('No API key is configured');
    } finally {
      blocker.close();
    }
  });

  it('on SIGTERM under load completes every request it accepted', async () => {
    running = await spawnServer({ BUNDLES_DIR: dist, API_KEYS: 'load-key-12345', RATE_LIMIT: '1000000/s' });
    const url = running.url;
    let stop = false;
    const outcomes: Array<number | string> = [];
    const worker = async () => {
      while (!stop) {
        try {
          outcomes.push((await exec(url, 'load-key-12345')).status);
        } catch (error) {
          // Refused connections after the server closed are not accepted requests.
          outcomes.push(String(((error as Error).cause as NodeJS.ErrnoException | undefined)?.code ?? error));
          return;
        }
      }
    };
    const workers = Array.from({ length: 20 }, worker);
    // Under load by answers counted, not by time: a busy machine answers fewer in any fixed wait.
    while (outcomes.length <= 50) await new Promise((resolve) => setTimeout(resolve, 20));
    running.child.kill('SIGTERM');
    const code = await running.exited;
    stop = true;
    await Promise.all(workers);
    expect(code).toBe(0);
    const statuses = outcomes.filter((outcome) => typeof outcome === 'number');
    expect(statuses.length).toBeGreaterThan(50);
    expect(statuses.every((status) => status === 200)).toBe(true);
    // Every failure is a connection the server never accepted.
    expect(
      outcomes
        .filter((outcome) => typeof outcome === 'string')
        .every((outcome) => outcome === 'ECONNREFUSED' || outcome === 'ECONNRESET' || outcome === 'UND_ERR_SOCKET'),
    ).toBe(true);
  });

  it('on SIGTERM stops accepting, lets an in-flight request finish with Connection: close, and exits 0', async () => {
    running = await spawnServer({ BUNDLES_DIR: dist, API_KEYS: 'shutdown-key-1' });
    const url = new URL(running.url + execPath('service-resources', 'service'));
    const body = JSON.stringify(SEED);
    let sendRest!: () => void;
    const answer = new Promise<{ status: number; text: string; connection: string | undefined }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'X-APIKEY': 'shutdown-key-1' },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, text, connection: res.headers.connection }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      sendRest = () => req.end(body.slice(10));
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    running.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(fetch(running.url + '/healthz')).rejects.toThrow();
    sendRest();
    const { status, text, connection } = await answer;
    expect(status).toBe(200);
    expect(JSON.parse(text).kind).toBe('Service');
    // The draining answer closes its connection, as Envoy and nginx do, though the request came before the drain.
    expect(connection).toBe('close');
    expect(await running.exited).toBe(0);
    expect(running.stdout()).toContain('"msg":"stopped"');
  });
});

describe('drain', () => {
  it('on SIGTERM answers keep-alive clients on their idle sockets with Connection: close, instead of resetting them', async () => {
    running = await spawnServer({ BUNDLES_DIR: dist, API_KEYS: 'drain-key-12345' });
    const url = new URL(running.url);
    const agents = Array.from({ length: 20 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    const get = (agent: Agent) =>
      new Promise<{ status: number; connection: string | undefined; reused: boolean }>((resolve, reject) => {
        const req = httpRequest({ host: url.hostname, port: url.port, path: '/healthz', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, reused: req.reusedSocket }));
        });
        req.on('error', reject);
        req.end();
      });
    const first = await Promise.all(agents.map(get));
    expect(first.every((answer) => answer.status === 200 && answer.connection === 'keep-alive')).toBe(true);
    running.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 150));
    const during = await Promise.allSettled(agents.map(get));
    expect(during.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : String(outcome.reason)))).toEqual(
      agents.map(() => ({ status: 200, connection: 'close', reused: true })),
    );
    for (const agent of agents) agent.destroy();
    expect(await running.exited).toBe(0);
  });
});

describe('WORKERS', () => {
  it('serves from two worker processes on one port, and stops them all on SIGTERM', async () => {
    running = await spawnServer({ BUNDLES_DIR: dist, API_KEYS: 'workers-key-1', WORKERS: '2', RATE_LIMIT: '100000/s' });
    expect(running.stderr()).toContain('with 2 workers');
    const url = new URL(running.url + execPath('service-resources', 'service'));
    const body = JSON.stringify(SEED);
    const server = running;
    const pidsServing = () =>
      new Set(
        server
          .stdout()
          .split('\n')
          .filter((line) => line.includes('"msg":"request"'))
          .map((line) => JSON.parse(line).pid),
      );
    // The start line comes when the first worker listens; the second may still be starting on a busy
    // machine, so requests go on until both have answered (round robin), within a bound.
    for (let index = 0; index < 400 && (index < 20 || pidsServing().size < 2); index++) {
      const status = await new Promise<number>((resolve, reject) => {
        const request = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            agent: false,
            headers: { 'Content-Type': 'application/json', 'X-APIKEY': 'workers-key-1', Connection: 'close' },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode!));
          },
        );
        request.on('error', reject);
        request.end(body);
      });
      expect(status).toBe(200);
    }
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    const pids = pidsServing();
    expect(pids.size).toBe(2);
    expect(pids.has(running.child.pid)).toBe(false);
  });

  it('shares the key it made with every worker', async () => {
    running = await spawnServer({ BUNDLES_DIR: dist, WORKERS: '2' });
    const key = /Send it as X-APIKEY:\n\n {4}(ff_[A-Za-z0-9_-]{43})\n/.exec(running.stderr())![1]!;
    for (let index = 0; index < 6; index++) expect((await exec(running.url, key)).status).toBe(200);
  });
});

describe('reload on SIGHUP', () => {
  it('rotates keys from API_KEYS_FILE: two valid at once, then the old one removed', async () => {
    const file = path.join(tempDir(), 'keys');
    writeFileSync(file, keyFileEntry('old', 'old-key-11111') + '\n');
    running = await spawnServer({ BUNDLES_DIR: dist, API_KEYS_FILE: file });
    expect((await exec(running.url, 'old-key-11111')).status).toBe(200);
    expect((await exec(running.url, 'new-key-22222')).status).toBe(401);
    writeFileSync(file, `${keyFileEntry('old', 'old-key-11111')}\n${keyFileEntry('new', 'new-key-22222')}\n`);
    await hangUp(running, 'reload: API keys read again', 1);
    expect((await exec(running.url, 'old-key-11111')).status).toBe(200);
    expect((await exec(running.url, 'new-key-22222')).status).toBe(200);
    writeFileSync(file, keyFileEntry('new', 'new-key-22222') + '\n');
    await hangUp(running, 'reload: API keys read again', 2);
    expect((await exec(running.url, 'old-key-11111')).status).toBe(401);
    expect((await exec(running.url, 'new-key-22222')).status).toBe(200);
    writeFileSync(file, 'this is not a key line\n');
    await hangUp(running, 'API_KEYS_FILE could not be read', 1);
    expect((await exec(running.url, 'new-key-22222')).status).toBe(200);
    // Emptied (a truncated copy): refused as well, the keys in use stay valid.
    writeFileSync(file, '');
    await hangUp(running, 'API_KEYS_FILE could not be read', 2);
    expect((await exec(running.url, 'new-key-22222')).status).toBe(200);
  });

  it('refuses a key file that is huge, a FIFO or a device without reading it: the old keys stay, /healthz answers throughout', async () => {
    const file = path.join(tempDir(), 'keys');
    writeFileSync(file, keyFileEntry('old', 'old-key-11111') + '\n');
    // The Deployment's heap: a 200 MB key file read whole would run it out.
    const heap = serverContainer().env.NODE_OPTIONS ?? '';
    running = await spawnServer({ BUNDLES_DIR: dist, API_KEYS_FILE: file, NODE_OPTIONS: heap });
    const refusals: Array<[string, () => void]> = [
      ['is 209715200 bytes, more than the 1048576 bytes allowed', () => (writeFileSync(file, ''), truncateSync(file, 200 * 1024 * 1024))],
      ['is a FIFO, not a regular file', () => spawnSync('mkfifo', [file])],
      ['is a device, not a regular file', () => symlinkSync('/dev/zero', file)],
    ];
    for (const [index, [reason, plant]] of refusals.entries()) {
      rmSync(file, { force: true });
      plant();
      await hangUp(running, 'API_KEYS_FILE could not be read', index + 1);
      const lines = running
        .stdout()
        .split('\n')
        .filter((line) => line.includes('API_KEYS_FILE could not be read'));
      expect(JSON.parse(lines.at(-1)!).err.message).toContain(`${file}: ${reason}`);
      expect((await fetch(running.url + '/healthz')).status).toBe(200);
      expect((await exec(running.url, 'old-key-11111')).status).toBe(200);
    }
    expect(running.child.exitCode).toBeNull();
  });

  it('answers every request through SIGHUPs under load, one of them with an index that is not an index', async () => {
    const copy = tempDir();
    cpSync(dist, copy, { recursive: true });
    running = await spawnServer({ BUNDLES_DIR: copy, API_KEYS: 'reload-load-key', RATE_LIMIT: '1000000/s' });
    const url = running.url;
    let stop = false;
    const statuses: number[] = [];
    const worker = async () => {
      while (!stop) statuses.push((await exec(url, 'reload-load-key')).status);
    };
    const workers = Array.from({ length: 8 }, worker);
    for (let round = 1; round <= 3; round++) await hangUp(running, 'reload: bundles loaded', round);
    const index = readFileSync(path.join(copy, 'index.json'), 'utf8');
    writeFileSync(path.join(copy, 'index.json'), '{"format":"facetform.index/v1"}');
    await hangUp(running, 'reload: a bundle failed to load', 1);
    writeFileSync(path.join(copy, 'index.json'), index);
    await hangUp(running, 'reload: bundles loaded', 4);
    // The load ran through every reload; it stops once it has made its hundred requests, however fast the machine.
    while (statuses.length <= 100) await new Promise((resolve) => setTimeout(resolve, 10));
    stop = true;
    await Promise.all(workers);
    expect(running.child.exitCode).toBeNull();
    expect(statuses.every((status) => status === 200)).toBe(true);
  });

  it('keeps serving the old bundles when a new one is corrupt, and logs the file', async () => {
    const copy = tempDir();
    cpSync(dist, copy, { recursive: true });
    running = await spawnServer({ BUNDLES_DIR: copy, API_KEYS: 'reload-key-1' });
    const file = path.join(copy, `service-resources/v1/${declaredRelease('service-resources')}/bundle.json`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"Service"', '"Servic"'));
    await hangUp(running, 'a bundle failed to load', 1);
    expect((await exec(running.url, 'reload-key-1')).status).toBe(200);
    const line = running
      .stdout()
      .split('\n')
      .find((entry) => entry.includes('a bundle failed to load'))!;
    expect(JSON.parse(line)).toMatchObject({ level: 50, file, reason: expect.stringContaining('content does not match its digest') });
  });
});

describe('bundles at start', () => {
  it('builds dist/ when it is missing, and again only when a repository changes', async () => {
    const repos = repoCopy(SHIPPED_REPOS);
    const out = path.join(tempDir(), 'dist');
    const names = repositoriesIn(repos).map((repository) => repository.name);
    expect(staleRepositories(repos, out)).toEqual(names);
    expect(await ensureBuilt(repos, out)).toBe(`built ${names.join(', ')} into ${out}`);
    expect(existsSync(path.join(out, 'index.json'))).toBe(true);
    expect(await ensureBuilt(repos, out)).toBeUndefined();
    // A changed description needs the next patch release.
    const [major, minor, patch] = declaredRelease('extend-resources', repos).split('.').map(Number) as [number, number, number];
    writeFileSync(
      path.join(repos, 'extend-resources/repository.json'),
      JSON.stringify({
        name: 'extend-resources',
        vendor: 'facetform',
        apiVersion: 'v1',
        release: `${major}.${minor}.${patch + 1}`,
        description: 'Changed.',
      }),
    );
    expect(staleRepositories(repos, out)).toEqual(['extend-resources']);
    expect(await ensureBuilt(repos, out)).toBe(`built extend-resources into ${out}`);
  });

  it('says which file it could not write when the start-time build meets an unwritable dist/, without a stack', async () => {
    // A copy of the project whose dist/ is a file: no folder can be made there, even by root.
    const project = tempDir();
    for (const part of ['bin', 'lib', 'repos', 'package.json'])
      cpSync(path.join(ROOT, part), path.join(project, part), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'));
    writeFileSync(path.join(project, 'dist'), 'not a folder\n');
    const run = spawnSync(process.execPath, [path.join(project, 'bin/facetform.js'), 'serve'], {
      env: { PATH: process.env.PATH, PORT: '0', API_KEYS: 'some-long-key' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(`the build of .* into ${path.join(project, 'dist')} failed: cannot write ${path.join(project, 'dist')}\\S* \\(E[A-Z]+: `),
    );
    expect(run.stderr).toContain('set BUNDLES_DIR to bundles built elsewhere');
    expect(run.stderr).not.toMatch(/^\s+at /m);
    rmSync(project, { recursive: true });
  });

  it('refuses to start when a bundle does not match its digest, naming the file', async () => {
    const broken = tempDir();
    cpSync(dist, broken, { recursive: true });
    const file = path.join(broken, `service-resources/v1/${declaredRelease('service-resources')}/bundle.json`);
    writeFileSync(file, '{"format":"facetform.bundle/v1"');
    const result = await failedStart({ BUNDLES_DIR: broken, API_KEYS: 'some-long-key' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file}: cannot be read as JSON`);
    rmSync(broken, { recursive: true });
  });
});
