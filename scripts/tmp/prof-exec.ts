import { loadBundles } from '../../src/bundle/load.js';
import { execute } from '../../src/exec/execute.js';
const b = loadBundles('dist').filter((x) => x.bundle.repository.name === 'service-resources').at(-1)!;
const service = b.collections.get('service')!;
const request = service.collection.examples.find((e) => e.name === 'seed')!.request;
let sink: unknown;
const t0 = performance.now();
for (let i = 0; i < 1000000; i++) sink = JSON.stringify(execute(service, request).manifest);
console.log(((performance.now() - t0) / 1000000 * 1000).toFixed(0), 'ns');
