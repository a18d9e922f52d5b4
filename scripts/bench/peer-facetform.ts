/**
 * The facetform side of the peer bench, over the values sets the Helm side renders: the batch route
 * over HTTP (resources of one collection, each naming its values entry in its own globalvars), one
 * exec request per Service, one CLI process rendering every values set as its own Request file
 * (`facetform generate`, as a CI job runs one command over a folder), and one CLI process per
 * Service beside Node's own empty start-up, the floor of any Node process.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { LIMIT_SETTINGS } from '../../src/server/settings/limits.js';
import { BENCH_KEY, startOurs } from './http-bench.js';
import { cpuMicrosOf } from './measure.js';
import { type Timing, timed, type ValuesSet } from './peer-helm.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/facetform.js');
const [REPOSITORY, COLLECTION] = ['service-resources', 'service'];
const EXEC_PATH = `/apis/repos/facetform/${REPOSITORY}/v1/resources/collections/${COLLECTION}/exec`;
const BATCH_PATH = '/apis/repos/facetform/exec';
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

type Post = (path: string, body: string) => Promise<unknown>;

/** Batches and single requests against a server of its own, posted in turn over keep-alive (fetch keeps its connections). */
async function httpSides(dist: string, sets: ValuesSet[], log: (text: string) => void) {
  const server = await startOurs(dist);
  try {
    const post: Post = async (route, body) => {
      const headers = { 'content-type': 'application/json', 'x-apikey': BENCH_KEY };
      const response = await fetch(server.url + route, { method: 'POST', headers, body });
      if (response.status !== 200) throw new Error(`${route}: ${response.status} ${await response.text()}`);
      return response.json();
    };
    // The bodies are written before the clock starts, as a CI job's files are.
    const batches: string[] = [];
    for (let at = 0; at < sets.length; at += BATCH_SIZE) batches.push(JSON.stringify(batchRequest(sets.slice(at, at + BATCH_SIZE))));
    const singles = sets.map((set) => JSON.stringify(execRequest(set)));
    const serverCpu = async () => (await cpuMicrosOf(server.child.pid!)) / 1000;
    // Warm, as a running server is.
    for (const body of batches.slice(0, 5)) await post(BATCH_PATH, body);
    for (const body of singles.slice(0, 50)) await post(EXEC_PATH, body);

    log(`peers: facetform batch over HTTP, ${batches.length} requests of ${BATCH_SIZE} …`);
    const batch = await timed(async () => {
      const items: unknown[] = [];
      for (const body of batches) items.push(...((await post(BATCH_PATH, body)) as { items: unknown[] }).items);
      return items;
    }, serverCpu);
    log(`peers: facetform exec over HTTP, ${singles.length} requests …`);
    const perRequest = await timed(async () => {
      const manifests: unknown[] = [];
      for (const body of singles) manifests.push(await post(EXEC_PATH, body));
      return manifests;
    }, serverCpu);
    return { batch, perRequest };
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
