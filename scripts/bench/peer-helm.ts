/**
 * The Helm side of the peer bench: N values sets of the seed's Service, rendered by `helm template`
 * into `kubeconform -strict -summary` once per values set, as a CI job does, and once over a list
 * of them all; wall time and the CPU of the processes doing the work. Also the timing helpers both
 * sides share.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { writeKubeconformSchemas } from './kubeconform-schemas.js';
import type { Peers } from './peers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CHART = path.join(ROOT, 'scripts/bench/peer-chart');

export interface Timing {
  wallMs: number;
  cpuMs: number;
}
export type ValuesSet = { name: string; namespace: string; selector: Record<string, string>; ports: Array<Record<string, unknown>> };

/** The seed's Service, varied: its own name, selector and ports each time. */
export const valuesSet = (index: number): ValuesSet => ({
  name: `web-${index}`,
  namespace: 'default',
  selector: { app: `web-${index}`, tier: ['frontend', 'backend', 'cache'][index % 3]! },
  ports: [{ port: 80 + (index % 100), protocol: 'TCP', targetPort: 8000 + index }],
});

/** CPU of the children this process has waited for (Linux /proc: cutime and cstime, 100 ticks a second), in ms. */
export function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}
/** Wall and CPU (by default the children's) of `run`. */
export async function timed<T>(
  run: () => T | Promise<T>,
  cpuMs: () => number | Promise<number> = childrenCpuMs,
): Promise<{ timing: Timing; result: T }> {
  const [cpu, began] = [await cpuMs(), process.hrtime.bigint()];
  const result = await run();
  const wallMs = Number(process.hrtime.bigint() - began) / 1e6;
  return { timing: { wallMs, cpuMs: (await cpuMs()) - cpu }, result };
}

/** Helm's own folders in the bench's work folder, not the user's home. */
export const helmEnv = (work: string) => ({
  PATH: process.env.PATH!,
  HELM_CACHE_HOME: path.join(work, 'helm/cache'),
  HELM_CONFIG_HOME: path.join(work, 'helm/config'),
  HELM_DATA_HOME: path.join(work, 'helm/data'),
});

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

export interface HelmFigures {
  each: Timing;
  once: Timing;
  /** What helm template renders for all the values sets: the objects every facetform side must match. */
  services: unknown[];
}

/** The two Helm sides over `sets`, with their files in `work`. */
export async function helmSide(peers: Peers, sets: ValuesSet[], work: string, log: (text: string) => void): Promise<HelmFigures> {
  const schemas = writeKubeconformSchemas(path.join(work, 'schemas'), [{ apiVersion: 'v1', kind: 'Service' }]);
  sets.forEach((set, index) => writeFileSync(path.join(work, `values-${index}.json`), JSON.stringify(set)));
  const all = path.join(work, 'values-all.json');
  writeFileSync(all, JSON.stringify({ services: sets }));

  log(`peers: helm template | kubeconform, ${sets.length} times …`);
  const each = await timed(() =>
    sets.reduce((valid, _, index) => valid + helmPipeline(peers, path.join(work, `values-${index}.json`), schemas, work), 0),
  );
  log('peers: helm template over a list | kubeconform, once …');
  const once = await timed(() => helmPipeline(peers, all, schemas, work));
  if (each.result !== sets.length || once.result !== sets.length)
    throw new Error(`kubeconform found ${each.result} and ${once.result} valid, not ${sets.length}`);
  const helmOut = execFileSync(peers.helm, ['template', 'svc', CHART, '-f', all], {
    encoding: 'utf8',
    env: helmEnv(work),
    maxBuffer: 1 << 28,
  });
  return { each: each.timing, once: once.timing, services: parseAllDocuments(helmOut).map((document) => document.toJS()) };
}
