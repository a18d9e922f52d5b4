/**
 * HTTP benchmarks with autocannon: our exec route against a bare Koa route, the same body, the same
 * client settings and warm-up on both sides; GET /healthz against a bare Koa GET, which renders
 * nothing, so that the framework's cost is seen apart from the product's; start-up to the first 200;
 * RSS under sustained load.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { globSync } from 'glob';
import { compile } from 'path-to-regexp';
import { ROUTES } from '../../src/server/routes/route-table.js';
import { cpuMicrosOf, rssOf, sleep, spawnUntilUrl, type Spawned } from './measure.js';

export const BENCH_KEY = 'bench-key-0123456789';

/** A collection's exec path and the batch path of the shipped vendor, filled in from the server's route table. */
export const execPathOf = (repository: string, collection: string): string =>
  compile(ROUTES.exec.path)({ vendor: 'facetform', repository, apiVersion: 'v1', collection });
export const BATCH_PATH = compile(ROUTES.batch.path)({ vendor: 'facetform' });
const ROOT = path.resolve(import.meta.dirname, '../..');

export interface LoadFigures {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  total: number;
  /** Answers by HTTP status. */
  statuses: Record<number, number>;
  /** The server's CPU time (all its threads) per answered request, in µs: steadier than req/s on a shared machine. */
  cpuMicrosPerRequest?: number;
}

export interface Target {
  method: 'GET' | 'POST';
  path: string;
  /** A POST's JSON body. */
  body?: string;
}

function seedTarget(repository: string, collection: string): Target {
  const seed = JSON.parse(readFileSync(path.join(ROOT, 'repos', repository, collection, 'examples/seed.json'), 'utf8'));
  delete seed.$description;
  return {
    method: 'POST',
    path: execPathOf(repository, collection),
    body: JSON.stringify(seed),
  };
}

export const serviceSeed = (): Target => seedTarget('service-resources', 'service');

/** Public on our side, so both sides answer it without a key. */
export const healthz = (): Target => ({ method: 'GET', path: '/healthz' });

/** The seed example of every shipped collection. */
export function allSeeds(): Target[] {
  return globSync('*/*/examples/seed.json', { cwd: path.join(ROOT, 'repos'), posix: true })
    .sort()
    .map((file) => file.split('/') as [string, string])
    .map(([repository, collection]) => seedTarget(repository, collection));
}

export function startOurs(dist: string, extraEnv: Record<string, string> = {}): Promise<Spawned> {
  // The limiter runs as it always does, with a budget no benchmark reaches.
  return spawnUntilUrl(process.execPath, [path.join(ROOT, 'bin/facetform.js'), 'serve'], {
    BUNDLES_DIR: dist,
    API_KEYS: BENCH_KEY,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    RATE_LIMIT: '1000000000/s',
    ...extraEnv,
  });
}

export function startBare(manifest: string): Promise<Spawned> {
  return spawnUntilUrl(process.execPath, [path.join(ROOT, 'scripts/bench/bare-server.mjs')], { PORT: '0', BARE_MANIFEST: manifest });
}

export async function load(url: string, targets: Target[], seconds: number, connections = 50): Promise<LoadFigures> {
  let next = 0;
  const statuses: Record<number, number> = {};
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (request) => {
          const target = targets[next++ % targets.length]!;
          const headers = target.method === 'POST' ? { 'content-type': 'application/json', 'x-apikey': BENCH_KEY } : {};
          return { ...request, method: target.method, headers, path: target.path, body: target.body };
        },
        onResponse: (status) => void (statuses[status] = (statuses[status] ?? 0) + 1),
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
    statuses,
  };
}

/** One target on our server and on the bare one, in interleaved rounds, each side its own fresh process. */
export async function versusBare(
  dist: string,
  target: Target,
  options: { seconds: number; warmupSeconds: number; rounds: number },
): Promise<{ ours: LoadFigures; bare: LoadFigures }> {
  const exec = serviceSeed();
  const ours: LoadFigures[] = [];
  const bare: LoadFigures[] = [];
  let manifest = '';
  for (let round = 0; round < options.rounds; round++) {
    for (const side of ['ours', 'bare'] as const) {
      const server = side === 'ours' ? await startOurs(dist) : await startBare(manifest);
      try {
        // The bare route answers the manifest ours renders for the seed, byte for byte.
        if (side === 'ours' && manifest === '') {
          manifest = await (
            await fetch(server.url + exec.path, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-apikey': BENCH_KEY },
              body: exec.body,
            })
          ).text();
        }
        await load(server.url, [target], options.warmupSeconds);
        const cpuBefore = await cpuMicrosOf(server.child.pid!);
        const figures = await load(server.url, [target], options.seconds);
        figures.cpuMicrosPerRequest = ((await cpuMicrosOf(server.child.pid!)) - cpuBefore) / figures.total;
        (side === 'ours' ? ours : bare).push(figures);
      } finally {
        await server.stop();
      }
    }
  }
  const mean = (runs: LoadFigures[]): LoadFigures => ({
    requestsPerSecond: runs.reduce((sum, run) => sum + run.requestsPerSecond, 0) / runs.length,
    p99Ms: runs.reduce((sum, run) => sum + run.p99Ms, 0) / runs.length,
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    total: runs.reduce((sum, run) => sum + run.total, 0),
    statuses: {},
    cpuMicrosPerRequest: runs.reduce((sum, run) => sum + run.cpuMicrosPerRequest!, 0) / runs.length,
  });
  return { ours: mean(ours), bare: mean(bare) };
}

/** Milliseconds from spawning the process to its first 200 from exec; median of `rounds`, interleaved. */
export async function startup(dist: string, rounds: number): Promise<{ oursMs: number; bareMs: number }> {
  const target = serviceSeed();
  const manifest = JSON.stringify({ apiVersion: 'v1' });
  const firstOk = async (start: () => Promise<Spawned>): Promise<number> => {
    const began = process.hrtime.bigint();
    const server = await start();
    try {
      for (;;) {
        const response = await fetch(server.url + target.path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-apikey': BENCH_KEY },
          body: target.body,
        }).catch(() => undefined);
        if (response?.status === 200) return Number(process.hrtime.bigint() - began) / 1e6;
        await sleep(2);
      }
    } finally {
      await server.stop();
    }
  };
  const ours: number[] = [];
  const bare: number[] = [];
  for (let round = 0; round < rounds; round++) {
    ours.push(await firstOk(() => startOurs(dist)));
    bare.push(await firstOk(() => startBare(manifest)));
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!;
  return { oursMs: median(ours), bareMs: median(bare) };
}

/** RSS after a warm-up, and after `seconds` at saturation with the seven seed examples mixed. */
export async function memoryUnderLoad(
  dist: string,
  targets: Target[],
  options: { seconds: number; warmupSeconds: number },
): Promise<{ warmRss: number; loadedRss: number; load: LoadFigures }> {
  const server = await startOurs(dist);
  try {
    await load(server.url, targets, options.warmupSeconds);
    await sleep(500);
    const warmRss = await rssOf(server.child.pid!);
    const figures = await load(server.url, targets, options.seconds);
    await sleep(500);
    return { warmRss, loadedRss: await rssOf(server.child.pid!), load: figures };
  } finally {
    await server.stop();
  }
}
