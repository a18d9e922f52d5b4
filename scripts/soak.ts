/**
 * `npm run soak`: autocannon at saturation for 60 s (SOAK_SECONDS) against exec with the seven seed
 * examples mixed, after a warm-up. Prints the counts, the RSS before and after, and fails on any
 * error, any 5xx or RSS growth over 10%. Figures go to bench-results/soak.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { allSeeds, BENCH_KEY, startOurs } from './bench/http-bench.js';
import { rssOf, sleep } from './bench/measure.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.env.SOAK_SECONDS ?? 60);
const work = mkdtempSync(path.join(tmpdir(), 'facetform-soak-'));
let failed = false;
try {
  const dist = path.join(work, 'dist');
  execFileSync(process.execPath, [path.join(ROOT, 'bin/facetform.js'), 'build', '--out', dist], { cwd: ROOT, stdio: 'ignore' });
  const server = await startOurs(dist);
  try {
    const targets = allSeeds();
    const run = async (duration: number) => {
      let next = 0;
      const statuses = new Map<number, number>();
      const result = await autocannon({
        url: server.url,
        connections: 50,
        duration,
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-apikey': BENCH_KEY },
            setupRequest: (request) => {
              const target = targets[next++ % targets.length]!;
              return { ...request, path: target.path, body: target.body };
            },
            onResponse: (status) => void statuses.set(status, (statuses.get(status) ?? 0) + 1),
          },
        ],
      });
      return { result, statuses };
    };
    await run(5);
    await sleep(500);
    const rssBefore = await rssOf(server.child.pid!);
    const { result, statuses } = await run(seconds);
    await sleep(500);
    const rssAfter = await rssOf(server.child.pid!);
    const fiveHundreds = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0);
    const growth = rssAfter / rssBefore - 1;
    const figures = {
      date: new Date().toISOString(),
      seconds,
      requests: result.requests.total,
      requestsPerSecond: result.requests.average,
      p99Ms: result.latency.p99,
      statuses: Object.fromEntries(statuses),
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      fiveHundreds,
      rssBeforeMb: Math.round(rssBefore / 1048576),
      rssAfterMb: Math.round(rssAfter / 1048576),
      rssGrowthPercent: Math.round(growth * 1000) / 10,
      serverAlive: (await fetch(server.url + '/healthz')).status === 200,
    };
    console.log(JSON.stringify(figures, null, 2));
    mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
    writeFileSync(path.join(ROOT, 'bench-results/soak.json'), JSON.stringify(figures, null, 2) + '\n');
    failed = figures.errors > 0 || figures.timeouts > 0 || figures.non2xx > 0 || fiveHundreds > 0 || growth > 0.1 || !figures.serverAlive;
    console.log(failed ? 'soak FAILED' : `soak passed: ${figures.requests} requests, 0 errors, 0 5xx, RSS ${figures.rssBeforeMb} → ${figures.rssAfterMb} MB (${figures.rssGrowthPercent}%)`);
  } finally {
    await server.stop();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
