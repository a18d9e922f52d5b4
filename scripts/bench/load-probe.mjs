// Loads a dist/ folder in a fresh process and reports, as one JSON line: load time, the render
// latency of its first collection's first example, and RSS. Plain JavaScript over lib/, as shipped.
import { loadBundles } from '../../lib/bundle/load.js';
import { execute } from '../../lib/exec/execute.js';

const dir = process.argv[2];
const started = process.hrtime.bigint();
const bundles = loadBundles(dir);
const loadMs = Number(process.hrtime.bigint() - started) / 1e6;

const collection = bundles[0].collections.values().next().value;
const request = collection.collection.examples[0].request;
const sink = new Array(64);
const samples = [];
for (let round = 0; round < 9; round++) {
  const count = 20_000;
  const start = process.hrtime.bigint();
  for (let index = 0; index < count; index++) sink[index & 63] = execute(collection, request);
  samples.push(Number(process.hrtime.bigint() - start) / count);
}
samples.sort((a, b) => a - b);
const collections = bundles.reduce((count, loaded) => count + loaded.collections.size, 0);
process.stdout.write(JSON.stringify({ collections, loadMs, renderNs: samples[4], rss: process.memoryUsage().rss }) + '\n');
