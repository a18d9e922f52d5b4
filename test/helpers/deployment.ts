/** What deploy/deployment.yaml gives the server container: its memory limit and its environment. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ROOT } from './repos.js';

const UNITS: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 };

/** Bytes of a Kubernetes memory quantity such as 384Mi or 1G. */
export function quantityBytes(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)(|k|M|G|Ki|Mi|Gi)$/.exec(quantity);
  if (!match) throw new Error(`not a memory quantity this test reads: ${quantity}`);
  return Number(match[1]) * UNITS[match[2]!]!;
}

export interface ServerContainer {
  memoryLimitBytes: number;
  /** As the container is started with it; values only (no valueFrom). */
  env: Record<string, string>;
}

export function serverContainer(): ServerContainer {
  const text = readFileSync(path.join(ROOT, 'deploy/deployment.yaml'), 'utf8');
  const deployment = parseAllDocuments(text)
    .map((document) => document.toJS() as any)
    .find((manifest) => manifest.kind === 'Deployment');
  const container = deployment.spec.template.spec.containers[0];
  const env = Object.fromEntries(
    (container.env as Array<{ name: string; value?: string }>)
      .filter((entry) => entry.value !== undefined)
      .map((entry) => [entry.name, entry.value!]),
  );
  return { memoryLimitBytes: quantityBytes(container.resources.limits.memory), env };
}
