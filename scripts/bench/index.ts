/**
 * `npm run bench`: every benchmark of the performance issue, one table, figures as JSON in
 * bench-results/bench.json. `--quick` is a smoke run of a few seconds that only checks it all runs.
 * Every figure is a ratio measured side by side in this run.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { loadBundles } from '../../src/bundle/load.js';
import { allSeeds, memoryUnderLoad, startup } from './http-bench.js';
import { renderBench } from './render-bench.js';
import { registryBench } from './registry-bench.js';
import { peerBench, peerRows } from './peer-bench.js';
import { mistakeBench, mistakeRows } from './mistakes.js';
import { redisRows } from './redis-bench.js';
import { scaleOne } from './scale-bench.js';
import { fixed, type Row, versusBareRows } from './versus-bare.js';
import { hasDockerRegistry } from '../../test/helpers/docker-registry.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const quick = process.argv.includes('--quick');
// Without the peers (Helm, kubeconform): their first `go install` takes minutes, which a smoke run has not.
const withPeers = !process.argv.includes('--no-peers');
const settings = quick
  ? {
      rounds: 3,
      roundMs: 20,
      seconds: 1,
      warmupSeconds: 1,
      httpRounds: 1,
      startupRounds: 1,
      memorySeconds: 1,
      small: 2,
      large: 5,
      scaleLoadSeconds: 1,
      polls: 2,
      peerServices: 50,
    }
  : {
      rounds: 9,
      roundMs: 300,
      seconds: 10,
      warmupSeconds: 5,
      httpRounds: 3,
      startupRounds: 7,
      memorySeconds: 60,
      small: 50,
      large: 1000,
      scaleLoadSeconds: 5,
      polls: 21,
      peerServices: 1000,
    };

const rows: Row[] = [];
const figures: Record<string, unknown> = {
  date: new Date().toISOString(),
  cores: cpus().length,
  cpu: cpus()[0]?.model,
  node: process.version,
  quick,
  settings,
};
const mb = (bytes: number) => `${fixed(bytes / 1024 / 1024, 0)} MB`;
const log = (text: string) => process.stderr.write(`${text}\n`);

const work = mkdtempSync(path.join(tmpdir(), 'facetform-bench-'));
try {
  const dist = path.join(work, 'dist');
  execFileSync(process.execPath, [path.join(ROOT, 'bin/facetform.js'), 'build', '--out', dist], { cwd: ROOT, stdio: 'ignore' });
  const service = loadBundles(dist)
    .find((loaded) => loaded.bundle.repository.name === 'service-resources')!
    .collections.get('service')!;

  log('render, in process …');
  const render = renderBench(service, settings);
  figures.render = render;
  const ours = render.nsPerRender.facetform!;
  rows.push({
    benchmark: 'render (service seed)',
    comparedWith: 'json-e',
    figure: `${fixed(render.nsPerRender['json-e']! / ours)}x faster (${fixed(ours, 0)} ns vs ${fixed(render.nsPerRender['json-e']!, 0)} ns)`,
    goal: '≥ 50x',
    met: render.nsPerRender['json-e']! / ours >= 50,
  });
  rows.push({
    benchmark: '',
    comparedWith: 'handlebars + JSON.parse',
    figure: `${fixed(render.nsPerRender.handlebars! / ours)}x faster (${fixed(render.nsPerRender.handlebars!, 0)} ns)`,
    goal: '≥ 10x',
    met: render.nsPerRender.handlebars! / ours >= 10,
  });
  rows.push({
    benchmark: '',
    comparedWith: 'hand-written floor',
    figure: `${fixed(ours / render.nsPerRender.floor!)}x the floor (${fixed(render.nsPerRender.floor!, 1)} ns)`,
    goal: '≤ 10x',
    met: ours / render.nsPerRender.floor! <= 10,
  });
  const validated = render.nsPerValidatedRender;
  rows.push({
    benchmark: 'validate + render + Kubernetes check + JSON',
    comparedWith: 'floor + JSON.stringify',
    figure: `${fixed(validated.facetform! / validated.floor!)}x (${fixed(validated.facetform!, 0)} ns vs ${fixed(validated.floor!, 0)} ns)`,
    goal: '≤ 5x',
    met: validated.facetform! / validated.floor! <= 5,
  });
  const unchecked = validated['without kubernetes check']!;
  rows.push({
    benchmark: '',
    comparedWith: 'the same without the Kubernetes check',
    figure: `the check adds ${fixed(validated.facetform! - unchecked, 0)} ns (${fixed(unchecked, 0)} ns without it, ${fixed(unchecked / validated.floor!)}x the floor)`,
    goal: 'shown',
    met: true,
  });
  rows.push({
    benchmark: '',
    comparedWith: "of which the API server's own rules (src/apiserver)",
    figure: `${fixed(validated['api server rules']!, 0)} ns (${fixed((100 * validated['api server rules']!) / validated.facetform!, 0)}% of the total)`,
    goal: 'shown',
    met: true,
  });

  const httpSettings = { seconds: settings.seconds, warmupSeconds: settings.warmupSeconds, rounds: settings.httpRounds };
  const versus = await versusBareRows(dist, httpSettings, log);
  Object.assign(figures, versus.figures);
  rows.push(...versus.rows);

  log('exec with Redis well, then stopped (SIGSTOP) under load …');
  const redis = await redisRows(dist, { ...httpSettings, stoppedSeconds: quick ? 1 : 5 });
  figures.redis = redis.figures;
  rows.push(...redis.rows);

  log('start-up …');
  const start = await startup(dist, settings.startupRounds);
  figures.startup = start;
  rows.push({
    benchmark: 'start-up to first 200',
    comparedWith: 'bare Koa server',
    figure: `${fixed(start.oursMs / start.bareMs, 2)}x (${fixed(start.oursMs, 0)} ms vs ${fixed(start.bareMs, 0)} ms)`,
    goal: '≤ 2x',
    met: start.oursMs / start.bareMs <= 2,
  });

  // Helm and kubeconform, installed with Go by the bench; without Go, one line says the rows are left out.
  // The CLI's figure is per process (about 200 ms each): a hundred of them say it as well as a thousand.
  const peers = withPeers ? await peerBench(dist, settings.peerServices, log, Math.min(settings.peerServices, 100)) : undefined;
  figures.peers = peers;
  if (peers !== undefined) rows.push(...peerRows(peers));
  // The same peers (installed by then) on the mistakes of scripts/bench/mistake-cases/; without Go, the line above said why not.
  const mistakes = peers !== undefined ? await mistakeBench(dist, log) : undefined;
  figures.mistakes = mistakes?.map(({ entry, verdicts }) => ({ case: entry.name, rule: entry.rule, ...verdicts }));
  if (mistakes !== undefined) rows.push(...mistakeRows(mistakes));

  if (hasDockerRegistry) {
    log('push, pull and poll against docker-registry …');
    // The shipped bundles, every committed release (the bench's own build holds only the declared ones).
    const registry = await registryBench(path.join(ROOT, 'dist'), settings.polls);
    figures.registry = registry;
    const size = `${registry.releases} releases, ${registry.files} files, ${fixed(registry.bytes / 1024, 0)} KiB`;
    rows.push({
      benchmark: 'registry (docker-registry, loopback)',
      comparedWith: 'push --sign, every release',
      figure: `${fixed(registry.pushMs, 0)} ms (${size}; ${fixed(registry.pushMs / registry.releases, 0)} ms each)`,
      goal: 'shown',
      met: true,
    });
    rows.push({
      benchmark: '',
      comparedWith: 'pull, signature checked',
      figure: `${fixed(registry.pullMs, 0)} ms (${fixed(registry.pullMs / registry.releases, 0)} ms each)`,
      goal: 'shown',
      met: true,
    });
    rows.push({
      benchmark: '',
      comparedWith: 'a poll with nothing new',
      figure: `${fixed(registry.pollMs, 1)} ms, ${fixed(registry.pollRequests, 0)} requests, ${fixed(registry.pollCpuUs / 1000, 1)} ms CPU`,
      goal: 'shown',
      met: true,
    });
  } else log('docker-registry is not installed: the registry rows are left out');

  log(`scale: ${settings.small} and ${settings.large} collections …`);
  const small = await scaleOne(settings.small, settings.scaleLoadSeconds);
  const large = await scaleOne(settings.large, settings.scaleLoadSeconds);
  figures.scale = { small, large };
  const label = `${settings.large} vs ${settings.small} collections`;
  rows.push({
    benchmark: `scale: ${label}`,
    comparedWith: 'build time',
    figure: `${fixed(large.buildMs / small.buildMs)}x (${fixed(large.buildMs / 1000)} s vs ${fixed(small.buildMs / 1000)} s)`,
    goal: '≤ 25x',
    met: large.buildMs / small.buildMs <= 25,
  });
  rows.push({
    benchmark: '',
    comparedWith: 'bundle load time',
    figure: `${fixed(large.loadMs / small.loadMs)}x (${fixed(large.loadMs, 0)} ms vs ${fixed(small.loadMs, 0)} ms)`,
    goal: '≤ 25x',
    met: large.loadMs / small.loadMs <= 25,
  });
  rows.push({
    benchmark: '',
    comparedWith: 'render latency',
    figure: `${fixed(large.renderNs / small.renderNs, 2)}x (${fixed(large.renderNs, 0)} ns vs ${fixed(small.renderNs, 0)} ns)`,
    goal: '≤ 1.2x',
    met: large.renderNs / small.renderNs <= 1.2,
  });
  rows.push({
    benchmark: '',
    comparedWith: 'server RSS',
    figure: mb(large.serverRss),
    goal: '< 300 MB',
    met: large.serverRss < 300 * 1024 * 1024,
  });

  log(`memory under load: ${settings.memorySeconds} s at saturation …`);
  const memory = await memoryUnderLoad(dist, allSeeds(), { seconds: settings.memorySeconds, warmupSeconds: settings.warmupSeconds });
  figures.memory = memory;
  rows.push({
    benchmark: `memory: ${settings.memorySeconds} s at saturation`,
    comparedWith: 'RSS after warm-up',
    figure: `${fixed(memory.loadedRss / memory.warmRss, 3)}x (${mb(memory.loadedRss)} vs ${mb(memory.warmRss)}), ${memory.load.total} requests, ${memory.load.non2xx} non-2xx`,
    goal: '≤ 1.1x',
    met: memory.loadedRss / memory.warmRss <= 1.1 && memory.load.non2xx === 0,
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}

const header = ['benchmark', 'compared with', 'figure', 'goal', quick ? 'smoke run' : 'met'];
// A cell's own | (helm template | kubeconform) is escaped, or Markdown would read it as a column.
const cells = (row: Row) => [row.benchmark, row.comparedWith, row.figure, row.goal].map((cell) => cell.replaceAll('|', '\\|'));
const table = [header, ...rows.map((row) => [...cells(row), quick ? '-' : row.met ? 'yes' : 'NO'])];
const widths = header.map((_, column) => Math.max(...table.map((line) => line[column]!.length)));
const print = (line: string[]) => `| ${line.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
console.log([print(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...table.slice(1).map(print)].join('\n'));
const out = path.join(ROOT, 'bench-results', quick ? 'bench-quick.json' : 'bench.json');
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ ...figures, rows }, null, 2) + '\n');
console.log(`\n${figures.cores} cores, ${figures.cpu}, Node ${figures.node}, ${figures.date}; figures in ${path.relative(ROOT, out)}`);
if (!quick && rows.some((row) => !row.met)) console.log(`goals missed: ${rows.filter((row) => !row.met).length}`);
