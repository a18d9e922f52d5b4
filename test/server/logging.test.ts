/**
 * Logs cannot take the server down (issue 14, item 4): with stdout on a full disk or a pipe nobody
 * reads, the server goes on answering, drops and counts the log lines it cannot write, writes again
 * once stdout takes them, and exits 0 on SIGTERM.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { Socket } from 'node:net';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { killServers, spawnServer, type ServerProcess } from '../helpers/process.js';
import { tempDir } from '../helpers/repos.js';
import { execPath, shippedBundles } from '../helpers/server.js';

const KEY = 'logging-key-0123456789';
const SEED = { facets: ['addon:ports'], values: { web: { metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } } } };
// A request for an unknown path logs that path: 6,000 characters make a log line of about 6 KiB.
const LONG_PATH = '/' + 'x'.repeat(6000);

let dist: string;
let env: Record<string, string>;
let running: ServerProcess | undefined;
let reader: Socket | undefined;
beforeAll(async () => {
  dist = await shippedBundles();
  env = { BUNDLES_DIR: dist, API_KEYS: KEY, RATE_LIMIT: '1000000/s', LOG_LEVEL: 'info' };
});
afterEach(async () => {
  reader?.destroy();
  reader = undefined;
  await killServers();
  running = undefined;
});

const get = (url: string) => fetch(url, { headers: { 'X-APIKEY': KEY } });
const exec = (url: string) =>
  fetch(url + execPath('service-resources', 'service'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-APIKEY': KEY },
    body: JSON.stringify(SEED),
  });

/** Makes `count` requests, `concurrency` at a time; resolves with their statuses in order. */
async function statuses(count: number, concurrency: number, request: (index: number) => Promise<Response>): Promise<number[]> {
  const answers: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const response = await request(index);
      await response.arrayBuffer();
      answers[index] = response.status;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return answers;
}

async function droppedLines(server: ServerProcess): Promise<number> {
  const text = await (await get(server.url + '/metrics')).text();
  return Number(/^facetform_log_lines_dropped_total (\d+)$/m.exec(text)![1]);
}

async function waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  for (let waited = 0; !condition() && waited < timeoutMs; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** A FIFO the server writes its log to: the test holds the read end and reads it only when it says so. */
function stuckPipe(): { readEnd: number; writeEnd: number } {
  const fifo = path.join(tempDir('facetform-log-'), 'stdout');
  execFileSync('mkfifo', [fifo]);
  const readEnd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  return { readEnd, writeEnd: openSync(fifo, 'w') };
}

async function spawnWithStdout(fd: number): Promise<ServerProcess> {
  try {
    return await spawnServer(env, undefined, fd);
  } finally {
    closeSync(fd); // the server has its own copy
  }
}

/** Fills a stuck stdout: its 64 KiB pipe, then the server's 4 MiB log buffer, then some. */
async function floodLog(server: ServerProcess): Promise<void> {
  const answers = await statuses(2000, 20, (index) => (index % 4 === 0 ? fetch(server.url + '/healthz') : get(server.url + LONG_PATH)));
  expect(answers.filter((status) => status === 200)).toHaveLength(500);
  expect(answers.filter((status) => status === 404)).toHaveLength(1500);
}

describe('logging', () => {
  it('with stdout on a full disk (/dev/full), answers every request, drops and counts the log lines, and exits 0 on SIGTERM', async () => {
    running = await spawnWithStdout(openSync('/dev/full', 'w'));
    const health = await statuses(300, 10, () => fetch(running!.url + '/healthz'));
    const execs = await statuses(50, 5, () => exec(running!.url));
    expect(health.every((status) => status === 200)).toBe(true);
    expect(execs.every((status) => status === 200)).toBe(true);
    expect(running.child.exitCode).toBe(null);
    // The first lines wait in the buffer for space to come back; the ones after the first failed write are dropped.
    const dropped = await droppedLines(running);
    expect(dropped).toBeGreaterThan((health.length + execs.length) / 2);
    expect(running.stderr().match(/log lines are being dropped/g)).toEqual(['log lines are being dropped']);
    expect(running.stderr()).toContain('log lines are being dropped (writing to stdout fails with ENOSPC)');
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(running.stderr()).toContain('shutting down with log lines not written (ENOSPC)');
  });

  it('with stdout on a pipe nobody reads, answers every request and drops lines; once read, writes whole lines again', async () => {
    const { readEnd, writeEnd } = stuckPipe();
    running = await spawnWithStdout(writeEnd);
    await floodLog(running);
    const dropped = await droppedLines(running);
    expect(dropped).toBeGreaterThan(0);
    expect((await fetch(running.url + '/healthz')).status).toBe(200);

    let log = '';
    reader = new Socket({ fd: readEnd, readable: true, writable: false });
    reader.on('data', (chunk) => (log += chunk));
    // Once the buffer is written, the server says so; a line logged after that reaches stdout.
    await waitFor(() => running!.stderr().includes('stdout takes log lines again'));
    expect(running.stderr()).toMatch(/stdout takes log lines again; \d+ were dropped/);
    expect((await get(running.url + '/written-again')).status).toBe(404);
    await waitFor(() => log.includes('"path":"/written-again"'));
    expect(log).toContain('"path":"/written-again"');
    // Lines are dropped whole: what was written is a sequence of complete JSON lines (the last may be on its way).
    const lines = log.slice(0, log.lastIndexOf('\n')).split('\n');
    expect(lines.every((line) => JSON.parse(line).service === 'facetform')).toBe(true);
    expect(await droppedLines(running)).toBeGreaterThanOrEqual(dropped);

    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    await waitFor(() => log.includes('"msg":"stopped"'));
    expect(log.slice(-2000), running.stderr()).toContain('"msg":"stopped"');
  });

  it('with stdout on a pipe that stays stuck, exits 0 on SIGTERM', async () => {
    const { readEnd, writeEnd } = stuckPipe();
    running = await spawnWithStdout(writeEnd);
    try {
      await floodLog(running);
      running.child.kill('SIGTERM');
      expect(await running.exited).toBe(0);
      expect(running.stderr()).toMatch(/shutting down with log lines not written \(stdout did not take them within 1000 ms\)/);
    } finally {
      closeSync(readEnd);
    }
  });
});
