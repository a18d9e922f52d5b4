import { loadBundles } from '../../src/bundle/load.js';
import { renderBench } from '../bench/render-bench.js';
const bundles = loadBundles('/work/main/dist');
const b = bundles.filter((x) => x.bundle.repository.name === 'service-resources').at(-1)!;
const service = b.collections.get("service")!;
console.log(renderBench(service, { rounds: 5, roundMs: 300 }));
