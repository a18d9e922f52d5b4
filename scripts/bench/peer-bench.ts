/**
 * facetform against what teams run today: N Services rendered by `helm template | kubeconform
 * -strict` (peer-helm.ts), once per values set and once over a list, and by facetform
 * (peer-facetform.ts): its batch and its exec over HTTP against the real server, one CLI process
 * over them all, one CLI process each. Wall time, and the CPU of the processes doing the work;
 * every side's Services are checked to be the same objects as Helm's, so that the comparison is
 * honest. Runnable alone: `npx tsx scripts/bench/peer-bench.ts [--quick]`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { type FacetformFigures, facetformSides } from './peer-facetform.js';
import { helmSide, type Timing, valuesSet } from './peer-helm.js';
import { installPeers } from './peers.js';
import { fixed, type Row } from './versus-bare.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface PeerFigures extends FacetformFigures {
  services: number;
  helmEach: Timing;
  helmOnce: Timing;
}

/** Runs every side over `count` Services (the per-process CLI over `cliCount`); undefined when the peers cannot be installed. */
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
    const helm = await helmSide(peers, sets, work, log);
    const ours = await facetformSides(dist, sets, Math.min(cliCount, count), work, log);
    // Honest comparison: the same Services, object for object, on every side.
    for (const [side, services] of Object.entries(ours.services))
      if (!isDeepStrictEqual(services, helm.services.slice(0, services.length)) || services.length === 0)
        throw new Error(`facetform (${side}) and helm template rendered different Services`);
    return { services: count, helmEach: helm.each, helmOnce: helm.once, ...ours.figures };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const show = ({ wallMs, cpuMs }: Timing) => `${fixed(wallMs, 0)} ms wall, ${fixed(cpuMs, 0)} ms CPU`;
/** Per Service, in ms of wall time. */
const each = ({ wallMs }: Timing, count: number) => `${fixed(wallMs / count, 1)} ms`;

/** The table's rows: the goal is facetform ≥ 10x faster than helm template | kubeconform, by wall time. */
export function peerRows(figures: PeerFigures): Row[] {
  const { services, helmEach, helmOnce, batch, batchSize, perRequest, cliOnce, cliEach, nodeEmpty, cliServices } = figures;
  const goal = '≥ 10x faster than helm template | kubeconform';
  const ratio = (ours: Timing, peer: Timing) => peer.wallMs / ours.wallMs;
  const versus = (ours: Timing, peer: Timing) => `${fixed(ratio(ours, peer))}x faster (${show(ours)} vs ${show(peer)})`;
  // Per process, by the Service: the per-process row has fewer Services than Helm's.
  const perService = cliEach.wallMs / cliServices / (helmEach.wallMs / services);
  return [
    {
      benchmark: `${services} Services vs Helm`,
      comparedWith: `batch over HTTP (${batchSize} a request) vs helm | kubeconform, one each`,
      figure: versus(batch, helmEach),
      goal,
      met: ratio(batch, helmEach) >= 10,
    },
    {
      benchmark: '',
      comparedWith: 'batch over HTTP vs helm template of a list | kubeconform',
      figure: versus(batch, helmOnce),
      goal,
      met: ratio(batch, helmOnce) >= 10,
    },
    {
      benchmark: '',
      comparedWith: 'exec over HTTP, one request each, vs helm | kubeconform, one each',
      figure: versus(perRequest, helmEach),
      goal: 'shown',
      met: true,
    },
    {
      benchmark: '',
      comparedWith: 'CLI, one process (facetform generate, a Request file each) vs helm | kubeconform, one each',
      figure: versus(cliOnce, helmEach),
      goal,
      met: ratio(cliOnce, helmEach) >= 10,
    },
    {
      benchmark: '',
      comparedWith: `CLI, one process each (facetform render, ${cliServices} Services) vs helm | kubeconform, one each`,
      figure:
        `${fixed(1 / perService, 2)}x (${each(cliEach, cliServices)} vs ${each(helmEach, services)} a Service); ` +
        `Node's empty start-up alone takes ${each(nodeEmpty, cliServices)}, so one Node process a Service cannot reach 10x`,
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
    const count = quick ? 50 : 1000;
    const figures = await peerBench(dist, count, log, Math.min(count, 100));
    if (figures !== undefined) {
      console.log(JSON.stringify(figures, null, 2));
      for (const row of peerRows(figures))
        console.log(`${row.comparedWith}: ${row.figure}${row.goal === 'shown' ? '' : row.met ? ' (met)' : ' (NOT met)'}`);
    }
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
}
