/**
 * A smoke run of `npm run bench --quick`: it checks only that every benchmark ran, never a timing.
 * Without the peers (Helm and kubeconform, built with `go install` on first use: minutes on a fresh
 * clone), which `npm run bench` runs and `npm test` must not need.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/repos.js';

describe('npm run bench', () => {
  it('runs every benchmark in a quick smoke run and writes its figures', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/bench/index.ts', '--quick', '--no-peers'],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
    );
    for (const row of [
      'render (service seed)',
      'validate + render + Kubernetes check + JSON',
      'exec over HTTP',
      'GET /healthz',
      'its server CPU per request',
      'start-up to first 200',
      'scale:',
      'memory:',
    ])
      expect(stdout).toContain(row);
    const figures = JSON.parse(readFileSync(path.join(ROOT, 'bench-results/bench-quick.json'), 'utf8'));
    expect(figures.quick).toBe(true);
    expect(figures.rows.length).toBeGreaterThanOrEqual(13);
    expect(figures.http.ours.non2xx).toBe(0);
    expect(figures.healthz.ours.non2xx).toBe(0);
    expect(figures.healthz.ours.total).toBeGreaterThan(0);
    for (const side of [figures.http.ours, figures.http.bare, figures.healthz.ours, figures.healthz.bare])
      expect(side.cpuMicrosPerRequest).toBeGreaterThan(0);
  }, 180_000);
});
