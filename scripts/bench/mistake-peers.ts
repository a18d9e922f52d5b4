/**
 * What each peer does with the mistakes bench's manifests: Helm's values.schema.json (the bench's
 * Service chart, the only kind a chart exists for), `kubeconform -strict` and kubectl-validate, each
 * run offline on files in a work folder. A tool that fails otherwise than by refusing throws.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments } from 'yaml';
import type { MistakeCase, Verdict } from './mistake-cases.js';
import { writeKubeconformSchemas } from './kubeconform-schemas.js';
import { helmEnv } from './peer-helm.js';

const CHART = path.resolve(import.meta.dirname, 'peer-chart');
/** The chart renders this collection's Service; other kinds have no chart, so no Helm schema to check. */
export const CHART_COLLECTION = 'service-resources/service';
/**
 * The newest Kubernetes whose schemas kubectl-validate v0.0.4 has built in (1.23 to 1.30); for any
 * other version it downloads them from GitHub, which the bench cannot (no network). facetform's rules
 * are those of 1.33; the rules this bench meets have not changed between the two.
 */
export const KUBECTL_VALIDATE_KUBERNETES = '1.30';

/** Helm on a Service case: its values as the chart takes them (name, namespace, selector, ports); what Helm renders when it accepts must be the case's manifest. */
export function helmVerdict(helm: string, entry: MistakeCase, manifest: object, work: string): Verdict {
  if (entry.collection !== CHART_COLLECTION) return '—';
  const service = Object.values(entry.request.values)[0]!;
  const values = { name: service.metadata?.name, namespace: service.metadata?.namespace, ...service.spec };
  const file = path.join(work, `helm-values-${entry.name.replace(/\W+/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(values));
  const run = spawnSync(helm, ['template', 'svc', CHART, '-f', file], { encoding: 'utf8', env: helmEnv(work) });
  if (run.status !== 0) {
    if (!run.stderr.includes("values don't meet the specifications of the schema")) throw new Error(`helm failed: ${run.stderr}`);
    return 'refused';
  }
  const rendered = parseAllDocuments(run.stdout).map((document) => document.toJS());
  if (!isDeepStrictEqual(rendered, [manifest])) throw new Error(`helm rendered another Service than facetform for ${entry.name}`);
  return 'accepted';
}

/** kubeconform -strict over `files`, with schemas written for the kinds they hold; file to verdict. */
export function kubeconformVerdicts(
  kubeconform: string,
  files: string[],
  kinds: Array<{ apiVersion: string; kind: string }>,
  work: string,
): Map<string, Verdict> {
  const schemas = writeKubeconformSchemas(path.join(work, 'schemas'), kinds);
  // It exits 1 when a resource is invalid: the JSON on stdout says which.
  const run = spawnSync(kubeconform, ['-strict', '-verbose', '-output', 'json', '-schema-location', schemas, ...files], {
    encoding: 'utf8',
  });
  const { resources } = JSON.parse(run.stdout) as { resources: Array<{ filename: string; status: string; msg?: string }> };
  const verdicts = new Map<string, Verdict>();
  for (const { filename, status, msg } of resources) {
    if (status !== 'statusValid' && status !== 'statusInvalid') throw new Error(`kubeconform on ${filename}: ${status} ${msg}`);
    verdicts.set(filename, status === 'statusValid' ? 'accepted' : 'refused');
  }
  return verdicts;
}

/** kubectl-validate over `files`, offline, with its built-in schemas; file to verdict. */
export function kubectlValidateVerdicts(kubectlValidate: string, files: string[], work: string): Map<string, Verdict> {
  const run = spawnSync(kubectlValidate, ['--version', KUBECTL_VALIDATE_KUBERNETES, '-o', 'json', ...files], {
    encoding: 'utf8',
    // No kubeconfig, no cluster: only what is built in.
    env: { PATH: process.env.PATH!, HOME: work, KUBECONFIG: path.join(work, 'no-kubeconfig') },
  });
  const results = JSON.parse(run.stdout) as Record<string, Array<{ status: string; message?: string; code?: number }>>;
  const verdicts = new Map<string, Verdict>();
  for (const [file, [result]] of Object.entries(results)) {
    // 422 is the API server's Invalid; anything else (a schema that cannot load, say) is the tool failing.
    if (result!.status === 'Failure' && result!.code !== 422) throw new Error(`kubectl-validate on ${file}: ${result!.message}`);
    verdicts.set(file, result!.status === 'Success' ? 'accepted' : 'refused');
  }
  return verdicts;
}

/** A peer that refuses none of the mistakes is not running its checks: the table would lie. */
export function checkRefusesSomething(tool: string, verdicts: Verdict[]): void {
  if (!verdicts.includes('refused')) throw new Error(`${tool} refused no case: it is not validating`);
}
