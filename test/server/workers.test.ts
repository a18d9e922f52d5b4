/** WORKERS=n when workers fail: the primary stops when none can start, says so when a replacement cannot, and scrapes sum every worker. */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { failedStart, killServers, spawnServer, type ServerProcess } from '../helpers/process.js';
import { declaredRelease, tempDir } from '../helpers/repos.js';
import { execPath, shippedBundles } from '../helpers/server.js';

const KEY = 'workers-test-key-1';
const SEED = { facets: ['addon:ports'], values: { web: { metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } } } };

let dist: string;
let running: ServerProcess | undefined;
beforeAll(async () => {
  dist = await shippedBundles();
});
afterEach(async () => {
  await killServers();
  running = undefined;
});

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  for (let waited = 0; waited < timeoutMs; waited += 50) {
    // A keep-alive socket to a worker just killed resets: that is a "not yet", not a failure.
    const value = await Promise.resolve()
      .then(probe)
      .catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}\n${running?.stdout().slice(-3000)}\n${running?.stderr()}`);
}

/** One request on a new connection each time, so that the primary hands them to both workers in turn. */
function execOnNewConnection(url: string): Promise<number> {
  const target = new URL(url + execPath('service-resources', 'service'));
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent: false,
        headers: { 'Content-Type': 'application/json', 'X-APIKEY': KEY, Connection: 'close' },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(SEED));
  });
}

const logLines = (server: ServerProcess) =>
  server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const workerPids = (server: ServerProcess) =>
  logLines(server)
    .filter((line) => line.msg === 'listening')
    .map((line) => line.pid as number);

async function metrics(url: string): Promise<string> {
  const response = await fetch(url + '/metrics', { headers: { 'X-APIKEY': KEY } });
  expect(response.status).toBe(200);
  return response.text();
}
/** The sum of a metric's samples whose labels contain `labels`. */
function sample(text: string, name: string, labels = ''): number {
  return text
    .split('\n')
    .filter((line) => (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) && line.includes(labels))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

const readyz = async (url: string) =>
  (await fetch(url + '/readyz')).json() as Promise<{ status: string; workers?: { wanted: number; listening: number }; detail?: string }>;

describe('WORKERS that cannot start', () => {
  it('stops the primary with a non-zero code and the reason when no worker can listen', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const result = await failedStart({ BUNDLES_DIR: dist, API_KEYS: KEY, WORKERS: '2', PORT: String(port) });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/no worker could start \(worker \d+: cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)/);
    } finally {
      taken.close();
    }
  });

  it('refuses an API_KEYS_FILE it cannot read before any worker starts, as one process does', async () => {
    const folder = path.join(tempDir(), 'keys');
    mkdirSync(folder);
    const single = await failedStart({ BUNDLES_DIR: dist, API_KEYS_FILE: folder });
    const clustered = await failedStart({ BUNDLES_DIR: dist, API_KEYS_FILE: folder, WORKERS: '2' });
    expect(clustered.code).toBe(single.code);
    expect(single.code).not.toBe(0);
    expect(clustered.stderr).toContain(`API_KEYS_FILE: ${folder}: cannot be read`);
    expect(clustered.stderr).not.toContain('no worker could start');
  });

  it(
    'says in its log, its metrics and /readyz when a replacement cannot start, keeps serving, and recovers',
    { timeout: 120_000 },
    async () => {
      const copy = tempDir();
      cpSync(dist, copy, { recursive: true });
      running = await spawnServer({ BUNDLES_DIR: copy, API_KEYS: KEY, WORKERS: '2', RATE_LIMIT: '100000/s' });
      const [victim] = await until('two workers', () => (workerPids(running!).length === 2 ? workerPids(running!) : undefined));
      expect(await readyz(running.url)).toMatchObject({ status: 'ready', workers: { wanted: 2, listening: 2 } });

      const file = path.join(copy, `service-resources/v1/${declaredRelease('service-resources')}/bundle.json`);
      const whole = readFileSync(file, 'utf8');
      writeFileSync(file, whole.replace('"Service"', '"Servic"'));
      process.kill(victim!, 'SIGKILL');

      const failure = await until('a failed replacement in the log', () =>
        logLines(running!).find((line) => line.level === 50 && String(line.msg).includes('could not start')),
      );
      expect(failure).toMatchObject({
        listening: 1,
        wanted: 2,
        reason: expect.stringContaining(`${file}: content does not match its digest`),
      });
      // The primary tells the workers over IPC: the answer follows the log line shortly.
      const degraded = await until('/readyz naming the failure', async () => {
        const answer = await readyz(running!.url);
        return answer.detail?.includes(file) ? answer : undefined;
      });
      expect(degraded).toMatchObject({ status: 'degraded', workers: { wanted: 2, listening: 1 } });
      const text = await metrics(running.url);
      expect(sample(text, 'facetform_worker_start_failures_total')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'facetform_workers_listening')).toBe(1);
      for (let index = 0; index < 4; index++) expect(await execOnNewConnection(running.url)).toBe(200);

      writeFileSync(file, whole);
      // The next try comes after the back-off, which doubles with each failure (at most 30 s).
      await until('every worker serving again', async () => ((await readyz(running!.url)).status === 'ready' ? true : undefined), 45_000);
      expect(await readyz(running.url)).toMatchObject({ workers: { wanted: 2, listening: 2 } });
      await until('the recovery in the log', () => logLines(running!).find((line) => line.msg === 'every worker is serving again'));
    },
  );
});

describe('/metrics with WORKERS', () => {
  it('counts every worker in one scrape, and keeps the counts of a worker that died', async () => {
    running = await spawnServer({ BUNDLES_DIR: dist, API_KEYS: KEY, WORKERS: '2', RATE_LIMIT: '100000/s', LOG_LEVEL: 'info' });
    await until('two workers', () => (workerPids(running!).length === 2 ? true : undefined));
    const sent = 20;
    for (let index = 0; index < sent; index++) expect(await execOnNewConnection(running.url)).toBe(200);
    const served = new Set(
      await until('the access log', () => {
        const pids = logLines(running!)
          .filter((line) => line.msg === 'request' && line.method === 'POST')
          .map((line) => line.pid);
        return pids.length === sent ? pids : undefined;
      }),
    );
    expect(served.size).toBe(2); // both workers counted some: one worker's registry alone would fall short

    expect(sample(await metrics(running.url), 'facetform_http_requests_total', 'method="POST"')).toBe(sent);
    expect(sample(await metrics(running.url), 'facetform_http_requests_total', 'method="POST"')).toBe(sent);

    const [victim] = served;
    process.kill(victim as number, 'SIGKILL');
    await until('a replacement', async () =>
      (await readyz(running!.url)).workers?.listening === 2 && workerPids(running!).length === 3 ? true : undefined,
    );
    const after = await metrics(running.url);
    expect(sample(after, 'facetform_http_requests_total', 'method="POST"')).toBe(sent);
    expect(sample(after, 'facetform_worker_exits_total')).toBe(1);
  });
});

describe('a worker killed with a connection handed to it', () => {
  it('resets the connection at once instead of leaving the client waiting', { timeout: 60_000 }, async () => {
    running = await spawnServer({ BUNDLES_DIR: dist, API_KEYS: KEY, WORKERS: '2', RATE_LIMIT: '100000/s' });
    const [victim] = await until('two workers', () => (workerPids(running!).length === 2 ? workerPids(running!) : undefined));
    // A stopped worker never takes the connection the primary hands it (node:cluster waits for its
    // word first): the window in which a worker killed under load leaves a connection with the primary, held open.
    process.kill(victim!, 'SIGSTOP');
    try {
      const outcomes: Array<number | string | undefined> = [];
      const sent = Array.from({ length: 4 }, (_, index) =>
        execOnNewConnection(running!.url).then(
          (status) => (outcomes[index] = status),
          (error: NodeJS.ErrnoException) => (outcomes[index] = error.code ?? error.message),
        ),
      );
      // The other worker answers every connection but the one handed to the stopped worker.
      await until('three answers', () => (outcomes.filter((outcome) => outcome === 200).length === 3 ? true : undefined));
      const held = [0, 1, 2, 3].filter((index) => outcomes[index] === undefined);
      expect(held).toHaveLength(1);
      process.kill(victim!, 'SIGKILL');
      // Generous: the connection is closed as soon as the primary sees the worker's channel close; before, never.
      await Promise.race([Promise.all(sent), new Promise((resolve) => setTimeout(resolve, 20_000))]);
      expect(outcomes[held[0]!]).toMatch(/^(ECONNRESET|socket hang up)$/);
    } finally {
      try {
        process.kill(victim!, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    // The server goes on: the replacement listens and both serve.
    await until('a replacement worker', () => (workerPids(running!).length === 3 ? true : undefined));
    for (let index = 0; index < 4; index++) expect(await execOnNewConnection(running.url)).toBe(200);
  });
});
