/**
 * Scale: a generated set of collections against a small one. Build time, bundle load time, render
 * latency of one collection, and the server's RSS once it has served a spread of collections.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateRepos } from './generate-repos.js';
import { execPathOf, load, startOurs, BENCH_KEY, type Target } from './http-bench.js';
import { rssOf, sleep } from './measure.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ScaleFigures {
  collections: number;
  buildMs: number;
  loadMs: number;
  renderNs: number;
  serverRss: number;
}

function targetsOf(dist: string, count: number, spread: number): Target[] {
  const targets: Target[] = [];
  for (let index = 0; index < count; index += Math.max(1, Math.floor(count / spread))) {
    const repository = `generated-${String(Math.floor(index / 100)).padStart(2, '0')}`;
    const name = `service-${String(index).padStart(4, '0')}`;
    const example = JSON.parse(readFileSync(path.join(dist, '..', 'repos', repository, name, 'examples', 'all.json'), 'utf8'));
    delete example.$description;
    targets.push({
      method: 'POST',
      path: execPathOf(repository, name),
      body: JSON.stringify(example),
    });
  }
  return targets;
}

export async function scaleOne(count: number, loadSeconds: number): Promise<ScaleFigures> {
  const work = mkdtempSync(path.join(tmpdir(), `facetform-scale-${count}-`));
  try {
    const repos = generateRepos(path.join(work, 'repos'), count);
    const dist = path.join(work, 'dist');
    const began = process.hrtime.bigint();
    execFileSync(process.execPath, [path.join(ROOT, 'bin/facetform.js'), 'build', '--repos', repos, '--out', dist], { stdio: 'ignore' });
    const buildMs = Number(process.hrtime.bigint() - began) / 1e6;
    const probe = JSON.parse(execFileSync(process.execPath, [path.join(ROOT, 'scripts/bench/load-probe.mjs'), dist], { encoding: 'utf8' }));

    const server = await startOurs(dist);
    try {
      const targets = targetsOf(dist, count, 50);
      for (const target of targets) {
        const response = await fetch(server.url + target.path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-apikey': BENCH_KEY },
          body: target.body,
        });
        if (response.status !== 200) throw new Error(`${target.path}: ${response.status} ${await response.text()}`);
      }
      await load(server.url, targets, loadSeconds);
      await sleep(300);
      return { collections: count, buildMs, loadMs: probe.loadMs, renderNs: probe.renderNs, serverRss: await rssOf(server.child.pid!) };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
