/**
 * What one answer may hold and one request may cost (CONTRACT §7, issue 14 item 3), against the
 * server as its own process with small limits: answers past MAX_ANSWER_BYTES, predicted (a batch
 * fan-out) or found while writing (YAML indentation), values past MAX_VALUES_NODES, pointers under
 * long member names, and the bytes in flight past MAX_INFLIGHT_BYTES.
 */
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { collectionOfKind, facetsWriting, ROOT } from '../helpers/repos.js';
import { BASE, execPath, problemOf } from '../helpers/server.js';

const KEY = 'limits-key-0123456789';
const MAX_ANSWER_BYTES = 256 * 1024;
const MAX_VALUES_NODES = 5000;
const configMap = collectionOfKind('ConfigMap');
const crd = collectionOfKind('CustomResourceDefinition');

let server: ServerProcess;
beforeAll(async () => {
  server = await spawnServer({
    API_KEYS: KEY,
    BUNDLES_DIR: path.join(ROOT, 'dist'),
    MAX_ANSWER_BYTES: String(MAX_ANSWER_BYTES),
    MAX_VALUES_NODES: String(MAX_VALUES_NODES),
  });
});
afterAll(() => {
  server.child.kill('SIGTERM');
  return server.exited;
});

const post = (url: string, route: string, body: unknown, key = KEY) =>
  fetch(url + route, { method: 'POST', headers: { 'X-APIKEY': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/** A batch of `count` ConfigMaps that all read one values entry `entry`. */
function configMapBatch(count: number, entry: Record<string, unknown>) {
  const resource = { repository: configMap.repository, collection: configMap.collection, facets: facetsWriting(configMap, 'data') };
  return {
    resources: Array.from({ length: count }, () => resource),
    values: { shared: entry },
    globalvars: { [configMap.variable]: 'shared' },
  };
}

describe('answers', () => {
  // About 100 KB: three readers pass 256 KiB.
  const entry = { metadata: { name: 'shared' }, data: { a: 'x'.repeat(50_000), b: 'y'.repeat(50_000) } };

  it('a batch whose resources read more values than an answer may hold is a small 422 naming where it passes, before anything is rendered', async () => {
    const response = await post(server.url, `${BASE}/exec`, configMapBatch(50, entry));
    expect(Number(response.headers.get('content-length'))).toBeLessThan(2048);
    const problem = await problemOf(response);
    expect(problem).toMatchObject({
      status: 422,
      type: '/problems/answer-too-large',
      limit: MAX_ANSWER_BYTES,
      errors: [{ pointer: '/resources/2', detail: expect.stringContaining('takes the answer past 256 KiB') }],
    });
    expect(problem.detail).toContain('split the batch');
  });

  it('a batch within the limit answers every resource', async () => {
    const response = await post(server.url, `${BASE}/exec?format=yaml`, configMapBatch(2, entry));
    expect(response.status).toBe(200);
    expect((await response.text()).match(/^---$/gm)).toHaveLength(2);
  });

  it('an answer that grows past the limit as it is written (YAML indentation) is a 422 at the values entry, and the same manifest as JSON is a 200', async () => {
    // Four thousand lines of description 25 schema levels down: 16 KB of JSON, half a megabyte of YAML.
    let schema: Record<string, unknown> = { type: 'string', description: 'line\n'.repeat(4000) };
    for (let level = 0; level < 25; level++) schema = { type: 'object', properties: { p: schema } };
    const id = crd.seed.globalvars![crd.variable]!;
    const request = structuredClone(crd.seed);
    request.values[id].spec.versions[0].schema.openAPIV3Schema = schema;
    const route = execPath(crd.repository, crd.collection);
    const yaml = await post(server.url, `${route}?format=yaml`, request);
    expect(Number(yaml.headers.get('content-length'))).toBeLessThan(2048);
    expect(await problemOf(yaml)).toMatchObject({
      status: 422,
      type: '/problems/answer-too-large',
      errors: [{ pointer: `/values/${id}`, detail: 'takes more than 256 KiB on its own' }],
    });
    expect((await post(server.url, route, request)).status).toBe(200);
  });
});

describe('what a request may cost', () => {
  // Unknown members count too: a thousand items in each of `arrays` arrays.
  const withValues = (arrays: number) => ({
    metadata: { name: 'many' },
    extra: Array.from({ length: arrays }, () => Array.from({ length: 1000 }, () => 1)),
  });

  it('values holding more JSON values than MAX_VALUES_NODES are a 422 at /values; in a batch each resource counts the entry it reads', async () => {
    const exec = await problemOf(
      await post(server.url, execPath(configMap.repository, configMap.collection), { values: { many: withValues(6) } }),
    );
    expect(exec).toMatchObject({
      status: 422,
      title: 'Request over limits',
      errors: [{ pointer: '/values', detail: expect.stringContaining(`at most ${MAX_VALUES_NODES}`) }],
    });
    const batch = await problemOf(await post(server.url, `${BASE}/exec`, configMapBatch(3, withValues(2))));
    expect(batch).toMatchObject({
      status: 422,
      title: 'Request over limits',
      errors: [{ pointer: '/resources', detail: expect.stringContaining('is read by 3 of them') }],
    });
    expect((await post(server.url, `${BASE}/exec`, configMapBatch(1, withValues(2)))).status).toBe(200);
  });

  it('pointers under a long member name are cut in the middle, so a 422 stays small and says where', async () => {
    const id = 'i'.repeat(6000);
    const data = Object.fromEntries(Array.from({ length: 150 }, (_, index) => [`k${index}`, index]));
    const response = await post(server.url, execPath(configMap.repository, configMap.collection), {
      facets: facetsWriting(configMap, 'data'),
      values: { [id]: { metadata: { name: 'c' }, data } },
    });
    expect(Number(response.headers.get('content-length'))).toBeLessThan(200 * 1024);
    const problem = await problemOf(response);
    expect(problem).toMatchObject({ status: 422, more: 50 });
    expect(problem.errors).toHaveLength(100);
    for (const error of problem.errors!) expect(error.pointer).toMatch(/^\/values\/i+…i+\/data\/k\d+$/);
  });
});

describe('bytes in flight', () => {
  const keys = ['first-key-0123456789', 'second-key-0123456789', 'third-key-0123456789'];
  let busy: ServerProcess;
  const stalled: Socket[] = [];
  beforeAll(async () => {
    // 2 MiB in flight, 1 MiB a key: one body of the largest size a key may send holds its half.
    busy = await spawnServer({
      API_KEYS: keys.join(','),
      BUNDLES_DIR: path.join(ROOT, 'dist'),
      MAX_INFLIGHT_BYTES: String(2 * 1024 * 1024),
      MAX_ANSWER_BYTES: String(MAX_ANSWER_BYTES),
      STALL_TIMEOUT_MS: '1500',
      REQUEST_TIMEOUT_MS: '60000',
    });
  });
  afterAll(() => {
    for (const socket of stalled) socket.destroy();
    busy.child.kill('SIGTERM');
    return busy.exited;
  });

  /** A request whose body (1 MiB, as declared) never comes: the server holds its bytes while it waits. */
  const stallUpload = (key: string) =>
    new Promise<Socket>((resolve) => {
      const { hostname, port } = new URL(busy.url);
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          `POST ${execPath(configMap.repository, configMap.collection)} HTTP/1.1\r\nHost: test\r\nX-APIKEY: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${1024 * 1024}\r\n\r\n{"values":`,
        );
        resolve(socket);
      });
      socket.on('error', () => {});
      stalled.push(socket);
    });
  const small = (key: string) => post(busy.url, execPath(configMap.repository, configMap.collection), configMap.seed, key);
  /** Polls until `request` answers `status`: what the server holds changes as sockets come and go. */
  async function until(status: number, request: () => Promise<Response>): Promise<Response> {
    for (const deadline = Date.now() + 20_000; ;) {
      const response = await request();
      if (response.status === status || Date.now() > deadline) return response;
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('a body past what the server may hold is a 503 with Retry-After; one key holds at most half, and what a closed connection held is free again', async () => {
    const first = await stallUpload(keys[0]!);
    const refused = await until(503, () => small(keys[0]!));
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await problemOf(refused)).toMatchObject({ status: 503, type: '/problems/server-busy' });
    // The second key has its own half.
    expect((await small(keys[1]!)).status).toBe(200);
    await stallUpload(keys[2]!);
    expect((await until(503, () => small(keys[1]!))).status).toBe(503);
    first.destroy();
    expect((await until(200, () => small(keys[1]!))).status).toBe(200);
  });

  it('closes a connection on which nothing moves for STALL_TIMEOUT_MS, and frees what it held', async () => {
    const socket = await stallUpload(keys[0]!);
    await until(503, () => small(keys[0]!));
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    expect((await until(200, () => small(keys[0]!))).status).toBe(200);
  });
});
