/**
 * The facetform side of the peer bench, over the values sets the Helm side renders: the batch route
 * over HTTP (resources of one collection, each naming its values entry in its own globalvars), one
 * exec request per Service, one CLI process rendering every values set as its own Request file
 * (`facetform generate`, as a CI job runs one command over a folder), and one CLI process per
 * Service beside Node's own empty start-up, the floor of any Node process.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { LIMIT_SETTINGS } from '../../src/server/settings/limits.js';
import { BATCH_PATH, BENCH_KEY, execPathOf, startOurs } from './http-bench.js';
import { cpuMicrosOf } from './measure.js';
import { type Timing, timed, type ValuesSet } from './peer-helm.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/facetform.js');
const [REPOSITORY, COLLECTION] = ['service-resources', 'service'];
const EXEC_PATH = execPathOf(REPOSITORY, COLLECTION);
const SEED = JSON.parse(readFileSync(path.join(ROOT, 'repos', REPOSITORY, COLLECTION, 'examples/seed.json'), 'utf8'));
const VARIABLE = Object.keys(SEED.globalvars)[0]!;
/** A batch as large as a default server takes: its resources, and the values entries they read. */
export const BATCH_SIZE = Math.min(Number(LIMIT_SETTINGS.MAX_RESOURCES.default), Number(LIMIT_SETTINGS.MAX_VALUES_ENTRIES.default));

/** A values set as the seed writes its values entry. */
const entryOf = ({ name, namespace, selector, ports }: ValuesSet) => ({ metadata: { name, namespace }, spec: { selector, ports } });
/** The exec request of one values set, as the seed example is written. */
const execRequest = (set: ValuesSet) => ({
  facets: SEED.facets,
  values: { [set.name]: entryOf(set) },
  globalvars: { [VARIABLE]: set.name },
});
/** One batch body: a resource per values set, each reading its own entry through its own globalvars. */
const batchRequest = (sets: ValuesSet[]) => ({
  resources: sets.map((set) => ({
    repository: REPOSITORY,
    collection: COLLECTION,
    facets: SEED.facets,
    globalvars: { [VARIABLE]: set.name },
  })),
  values: Object.fromEntries(sets.map((set) => [set.name, entryOf(set)])),
});

export interface FacetformFigures {
  /** The server's CPU (the client's is not counted, as no curl's would be) and the client's wall. */
  batch: Timing;
  batchSize: number;
  perRequest: Timing;
  /** One `facetform generate` over a Request file per values set. */
  cliOnce: Timing;
  /** `facetform render`, one process per Service, over `cliServices` of them; `nodeEmpty`, as many `node -e 0`. */
  cliEach: Timing;
  nodeEmpty: Timing;
  cliServices: number;
}

type Post = (path: string, body: string) => Promise<string>;

/** Batches posted at once, as a CI job's `xargs -P` would. */
const IN_FLIGHT = 4;
/** How long a route is warmed before it is timed: as long as the HTTP rows' warm-up is, at least. */
const WARM_MS = 2000;
const warm = async (post: () => Promise<unknown>) => {
  for (const began = performance.now(); performance.now() - began < WARM_MS;) await post();
};

/** Batches and single requests against a server of its own, posted in turn over keep-alive (a keep-alive agent). */
async function httpSides(dist: string, sets: ValuesSet[], log: (text: string) => void) {
  const server = await startOurs(dist);
  try {
    // node:http with a keep-alive agent, as lean a client as curl; the answer is kept as text while
    // timed (a CI job pipes it to kubectl) and read as JSON after.
    const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
    const post: Post = (route, body) =>
      new Promise((resolve, reject) => {
        const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-apikey': BENCH_KEY };
        const request = httpRequest(server.url + route, { method: 'POST', headers, agent }, (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () =>
            response.statusCode === 200 ? resolve(text) : reject(new Error(`${route}: ${response.statusCode} ${text}`)),
          );
        });
        request.on('error', reject);
        request.end(body);
      });
    // The bodies are written before the clock starts, as a CI job's files are.
    const batches: string[] = [];
    for (let at = 0; at < sets.length; at += BATCH_SIZE) batches.push(JSON.stringify(batchRequest(sets.slice(at, at + BATCH_SIZE))));
    const singles = sets.map((set) => JSON.stringify(execRequest(set)));
    const serverCpu = async () => (await cpuMicrosOf(server.child.pid!)) / 1000;
    // Warm, as a running server is: a few batches leave the route's code half compiled (in one
    // process, a batch of 50 costs 1–5 ms for its first few dozen and about 0.6 ms after).
    await warm(() => post(BATCH_PATH, batches[0]!));
    await warm(() => post(EXEC_PATH, singles[0]!));

    log(`peers: facetform batch over HTTP, ${batches.length} requests of ${BATCH_SIZE}, ${IN_FLIGHT} at a time …`);
    const batch = await timed(async () => {
      // As a CI job posts its batches, a few at a time; the answers are kept in request order.
      const answers: string[] = new Array(batches.length);
      let next = 0;
      const lane = async () => {
        for (let index = next++; index < batches.length; index = next++) answers[index] = await post(BATCH_PATH, batches[index]!);
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
      return answers;
    }, serverCpu);
    log(`peers: facetform exec over HTTP, ${singles.length} requests …`);
    const perRequest = await timed(async () => {
      const manifests: string[] = [];
      for (const body of singles) manifests.push(await post(EXEC_PATH, body));
      return manifests;
    }, serverCpu);
    // Read after the clock: each answer as JSON, a batch's as its items.
    const read = (text: string) => JSON.parse(text) as unknown;
    return {
      batch: { ...batch, result: batch.result.flatMap((text) => (read(text) as { items: unknown[] }).items) },
      perRequest: { ...perRequest, result: perRequest.result.map(read) },
    };
  } finally {
    await server.stop();
  }
}

/** One `facetform generate` over a folder of Request files, one per values set. */
async function cliOnce(dist: string, sets: ValuesSet[], work: string, log: (text: string) => void) {
  const folder = path.join(work, 'requests');
  mkdirSync(folder, { recursive: true });
  const wrap = { apiVersion: 'facetform.dev/v1alpha1', kind: 'Request' };
  sets.forEach((set) => {
    const spec = { repository: REPOSITORY, collection: COLLECTION, ...execRequest(set) };
    // JSON is YAML: the files are read as request files are.
    writeFileSync(path.join(folder, `${set.name}.yaml`), JSON.stringify({ ...wrap, metadata: { name: set.name }, spec }));
  });
  const generator = { apiVersion: 'facetform.dev/v1alpha1', kind: 'FacetformGenerator', metadata: { name: 'bench' }, bundles: dist };
  // Named one by one, so that the stream is in the values sets' order.
  writeFileSync(
    path.join(work, 'generator.yaml'),
    JSON.stringify({ ...generator, requests: sets.map((set) => `requests/${set.name}.yaml`) }),
  );
  log(`peers: facetform generate (CLI), ${sets.length} Request files in one process …`);
  return timed(() => {
    const out = execFileSync(process.execPath, [BIN, 'generate', 'generator.yaml'], { cwd: work, encoding: 'utf8', maxBuffer: 1 << 28 });
    return parseAllDocuments(out).map((document) => document.toJS());
  });
}

/** `facetform render` once per Service, and as many empty Node processes. */
async function cliEach(dist: string, sets: ValuesSet[], work: string, log: (text: string) => void) {
  log(`peers: facetform render (CLI), ${sets.length} processes, and as many node -e 0 …`);
  const each = await timed(() =>
    sets.map((set) => {
      const file = path.join(work, `request-${set.name}.json`);
      writeFileSync(file, JSON.stringify(execRequest(set)));
      const args = [BIN, 'render', `${REPOSITORY}/${COLLECTION}`, '--request', file, '--bundles', dist];
      return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as unknown;
    }),
  );
  const empty = await timed(() => sets.forEach(() => execFileSync(process.execPath, ['-e', '0'])));
  return { each, empty };
}

/** Every facetform side; each one's Services, for the caller to hold against Helm's. */
export async function facetformSides(dist: string, sets: ValuesSet[], cliCount: number, work: string, log: (text: string) => void) {
  const { batch, perRequest } = await httpSides(dist, sets, log);
  const once = await cliOnce(dist, sets, work, log);
  const { each, empty } = await cliEach(dist, sets.slice(0, cliCount), work, log);
  const figures: FacetformFigures = {
    batch: batch.timing,
    batchSize: BATCH_SIZE,
    perRequest: perRequest.timing,
    cliOnce: once.timing,
    cliEach: each.timing,
    nodeEmpty: empty.timing,
    cliServices: cliCount,
  };
  const services = { batch: batch.result, 'one request each': perRequest.result, generate: once.result, 'render per process': each.result };
  return { figures, services };
}
