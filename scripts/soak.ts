/**
 * `npm run soak`: autocannon at saturation for 60 s (SOAK_SECONDS) against exec with the seven seed
 * examples mixed, after a warm-up. Prints the counts, the RSS before and after, and fails on any
 * error, any 5xx or RSS growth over 10%. Figures go to bench-results/soak.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { allSeeds, load, startOurs } from './bench/http-bench.js';
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
    await load(server.url, targets, 5);
    await sleep(500);
    const rssBefore = await rssOf(server.child.pid!);
    const result = await load(server.url, targets, seconds);
    await sleep(500);
    const rssAfter = await rssOf(server.child.pid!);
    const fiveHundreds = Object.entries(result.statuses)
      .filter(([status]) => Number(status) >= 500)
      .reduce((sum, [, count]) => sum + count, 0);
    const growth = rssAfter / rssBefore - 1;
    const figures = {
      date: new Date().toISOString(),
      seconds,
      requests: result.total,
      requestsPerSecond: result.requestsPerSecond,
      p99Ms: result.p99Ms,
      statuses: result.statuses,
      errors: result.errors,
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
    failed = figures.errors > 0 || figures.non2xx > 0 || fiveHundreds > 0 || growth > 0.1 || !figures.serverAlive;
    console.log(
      failed
        ? 'soak FAILED'
        : `soak passed: ${figures.requests} requests, 0 errors, 0 5xx, RSS ${figures.rssBeforeMb} → ${figures.rssAfterMb} MB (${figures.rssGrowthPercent}%)`,
    );
  } finally {
    await server.stop();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
