/**
 * facetform against what teams run today: N Services rendered (a) by `helm template` once per values
 * set into `kubeconform -strict -summary`, as a CI job does, (b) by one `helm template` over a list,
 * (c) by facetform's exec over HTTP against the real server, (d) by `facetform render`, one process
 * each. Wall time, and the CPU of the processes doing the work; every side's Services are checked to
 * be the same objects, so that the comparison is honest. Runnable alone: `npx tsx scripts/bench/peer-bench.ts [--quick]`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { BENCH_KEY, startOurs } from './http-bench.js';
import { writeKubeconformSchemas } from './kubeconform-schemas.js';
import { cpuMicrosOf } from './measure.js';
import { installPeers, type Peers } from './peers.js';
import { fixed, type Row } from './versus-bare.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CHART = path.join(ROOT, 'scripts/bench/peer-chart');
const EXEC_PATH = '/apis/repos/facetform/service-resources/v1/resources/collections/service/exec';

export interface Timing {
  wallMs: number;
  cpuMs: number;
}
type ValuesSet = { name: string; namespace: string; selector: Record<string, string>; ports: Array<Record<string, unknown>> };

/** The seed's Service, varied: its own name, selector and ports each time. */
const valuesSet = (index: number): ValuesSet => ({
  name: `web-${index}`,
  namespace: 'default',
  selector: { app: `web-${index}`, tier: ['frontend', 'backend', 'cache'][index % 3]! },
  ports: [{ port: 80 + (index % 100), protocol: 'TCP', targetPort: 8000 + index }],
});
/** The exec request of a values set, as the seed example is written. */
function execRequest({ name, namespace, selector, ports }: ValuesSet): object {
  const seed = JSON.parse(readFileSync(path.join(ROOT, 'repos/service-resources/service/examples/seed.json'), 'utf8'));
  return {
    facets: seed.facets,
    values: { [name]: { metadata: { name, namespace }, spec: { selector, ports } } },
    globalvars: { __SVC_ID__: name },
  };
}
/** CPU of the children this process has waited for (Linux /proc: cutime and cstime, 100 ticks a second), in ms. */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}
/** Wall and children's CPU of `run`. */
async function timed<T>(
  run: () => T | Promise<T>,
  cpuMs: () => number | Promise<number> = childrenCpuMs,
): Promise<{ timing: Timing; result: T }> {
  const [cpu, began] = [await cpuMs(), process.hrtime.bigint()];
  const result = await run();
  const wallMs = Number(process.hrtime.bigint() - began) / 1e6;
  return { timing: { wallMs, cpuMs: (await cpuMs()) - cpu }, result };
}

/** `helm template | kubeconform -strict -summary` on a values file; the number of valid resources. */
function helmPipeline(peers: Peers, values: string, schemas: string, work: string): number {
  const summary = execFileSync(
    'bash',
    // --norc: bash reads ~/.bashrc when it guesses a remote shell, which is no part of the pipeline.
    [
      '--norc',
      '--noprofile',
      '-o',
      'pipefail',
      '-c',
      '"$HELM" template svc "$CHART" -f "$VALUES" | "$KUBECONFORM" -strict -summary -schema-location "$SCHEMAS"',
    ],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...helmEnv(work), HELM: peers.helm, KUBECONFORM: peers.kubeconform, CHART, VALUES: values, SCHEMAS: schemas },
    },
  );
  const counts = /Valid: (\d+), Invalid: (\d+), Errors: (\d+)/.exec(summary);
  if (counts === null || counts[2] !== '0' || counts[3] !== '0') throw new Error(`kubeconform: ${summary}`);
  return Number(counts[1]);
}
/** Helm's own folders in the bench's work folder, not the user's home. */
export const helmEnv = (work: string) => ({
  PATH: process.env.PATH!,
  HELM_CACHE_HOME: path.join(work, 'helm/cache'),
  HELM_CONFIG_HOME: path.join(work, 'helm/config'),
  HELM_DATA_HOME: path.join(work, 'helm/data'),
});

export interface PeerFigures {
  services: number;
  helmEach: Timing;
  helmOnce: Timing;
  /** facetform's server: its CPU (the client's is not counted, as no curl's would be). */
  http: Timing;
  /** `facetform render`, one process per Service, over `cliServices` of them. */
  cli: Timing;
  cliServices: number;
}

/** Runs the four sides over `count` Services; undefined when the peers cannot be installed. */
export async function peerBench(
  dist: string,
  count: number,
  log: (text: string) => void,
  cliCount = count,
): Promise<PeerFigures | undefined> {
  const peers = installPeers(log);
  if (peers === undefined) return undefined;
  const work = mkdtempSync(path.join(tmpdir(), 'facetform-peers-'));
  try {
    const sets = Array.from({ length: count }, (_, index) => valuesSet(index));
    const schemas = writeKubeconformSchemas(path.join(work, 'schemas'), [{ apiVersion: 'v1', kind: 'Service' }]);
    sets.forEach((set, index) => {
      writeFileSync(path.join(work, `values-${index}.json`), JSON.stringify(set));
      writeFileSync(path.join(work, `request-${index}.json`), JSON.stringify(execRequest(set)));
    });
    const all = path.join(work, 'values-all.json');
    writeFileSync(all, JSON.stringify({ services: sets }));

    log(`peers: helm template | kubeconform, ${count} times …`);
    const each = await timed(() =>
      sets.reduce((valid, _, index) => valid + helmPipeline(peers, path.join(work, `values-${index}.json`), schemas, work), 0),
    );
    log('peers: helm template over a list | kubeconform, once …');
    const once = await timed(() => helmPipeline(peers, all, schemas, work));
    if (each.result !== count || once.result !== count)
      throw new Error(`kubeconform found ${each.result} and ${once.result} valid, not ${count}`);
    const helmOut = execFileSync(peers.helm, ['template', 'svc', CHART, '-f', all], {
      encoding: 'utf8',
      env: helmEnv(work),
      maxBuffer: 1 << 28,
    });
    const helmServices = parseAllDocuments(helmOut).map((document) => document.toJS());

    log(`peers: facetform exec over HTTP, ${count} requests …`);
    // One Service per request: a batch shares one globalvars, so its Services all read one values entry.
    const server = await startOurs(dist);
    let http: Awaited<ReturnType<typeof timed<unknown[]>>>;
    try {
      const post = async (index: number) => {
        const body = readFileSync(path.join(work, `request-${index}.json`), 'utf8');
        const headers = { 'content-type': 'application/json', 'x-apikey': BENCH_KEY };
        const response = await fetch(server.url + EXEC_PATH, { method: 'POST', headers, body });
        if (response.status !== 200) throw new Error(`exec ${index}: ${response.status} ${await response.text()}`);
        return response.json();
      };
      for (let index = 0; index < Math.min(count, 50); index++) await post(index); // warm, as a running server is
      const serverCpu = async () => (await cpuMicrosOf(server.child.pid!)) / 1000;
      http = await timed(async () => {
        const manifests: unknown[] = [];
        for (let index = 0; index < count; index++) manifests.push(await post(index));
        return manifests;
      }, serverCpu);
    } finally {
      await server.stop();
    }

    log(`peers: facetform render (CLI), ${cliCount} processes …`);
    const cli = await timed(() =>
      sets.slice(0, cliCount).map((_, index) => {
        const args = [
          path.join(ROOT, 'bin/facetform.js'),
          'render',
          'service-resources/service',
          '--request',
          path.join(work, `request-${index}.json`),
        ];
        return JSON.parse(execFileSync(process.execPath, [...args, '--bundles', dist], { encoding: 'utf8' })) as unknown;
      }),
    );

    // Honest comparison: the same Services, object for object, on every side.
    if (!isDeepStrictEqual(http.result, helmServices)) throw new Error('facetform over HTTP and helm template rendered different Services');
    if (!isDeepStrictEqual(cli.result, helmServices.slice(0, cliCount)))
      throw new Error('facetform render and helm template rendered different Services');
    return { services: count, helmEach: each.timing, helmOnce: once.timing, http: http.timing, cli: cli.timing, cliServices: cliCount };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const show = ({ wallMs, cpuMs }: Timing) => `${fixed(wallMs, 0)} ms wall, ${fixed(cpuMs, 0)} ms CPU`;

/** The table's rows: the goal is facetform over HTTP ≥ 10x faster than helm template | kubeconform. */
export function peerRows(figures: PeerFigures): Row[] {
  const { services, helmEach, helmOnce, http, cli, cliServices } = figures;
  const goal = 'facetform ≥ 10x faster than helm template | kubeconform';
  const versus = (peer: Timing) => `${fixed(peer.wallMs / http.wallMs)}x faster (${show(http)} vs ${show(peer)})`;
  return [
    {
      benchmark: `${services} Services vs Helm`,
      comparedWith: 'helm template | kubeconform, one each',
      figure: versus(helmEach),
      goal,
      met: helmEach.wallMs / http.wallMs >= 10,
    },
    {
      benchmark: '',
      comparedWith: 'helm template of a list | kubeconform',
      figure: versus(helmOnce),
      goal,
      met: helmOnce.wallMs / http.wallMs >= 10,
    },
    {
      benchmark: '',
      comparedWith: `facetform render (CLI), one each, ${cliServices} Services`,
      figure: show(cli),
      goal: 'shown',
      met: true,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  const log = (text: string) => process.stderr.write(`${text}\n`);
  const dist = mkdtempSync(path.join(tmpdir(), 'facetform-peers-dist-'));
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'bin/facetform.js'), 'build', '--out', dist], { cwd: ROOT, stdio: 'ignore' });
    const figures = await peerBench(dist, quick ? 50 : 1000, log);
    if (figures !== undefined) {
      console.log(JSON.stringify(figures, null, 2));
      for (const row of peerRows(figures)) console.log(`${row.comparedWith}: ${row.figure}`);
    }
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
}
