/**
 * Mistakes caught: every case of scripts/bench/mistake-cases/ (broken inputs across the rule classes of
 * the API server's own validation, and a valid control per kind) through Helm's values schema, kubeconform
 * -strict, kubectl-validate and facetform's server. The manifest the peers check is what the case's
 * request renders, unchecked. Runnable alone: `npx tsx scripts/bench/mistakes.ts [--write]` prints the
 * table, says whether README's is the same, and with --write writes it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { loadBundles } from '../../src/bundle/load.js';
import { BundleRegistry } from '../../src/bundle/registry.js';
import { BENCH_KEY, execPathOf, startOurs } from './http-bench.js';
import { caseCollection, missedCases, mistakeCases, mistakesTable, withTable, type MistakeCase, type Verdicts } from './mistake-cases.js';
import { checkRefusesSomething, helmVerdict, kubeconformVerdicts, kubectlValidateVerdicts } from './mistake-peers.js';
import { installPeers } from './peers.js';
import type { Row } from './versus-bare.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
export type MistakeRows = Array<{ entry: MistakeCase; verdicts: Verdicts }>;

/** What facetform's server answers a case: 422 is a refusal, 200 an acceptance; anything else is a failure of the bench. */
export async function facetformVerdict(url: string, entry: MistakeCase, apiKey: string): Promise<'refused' | 'accepted'> {
  const headers = { 'content-type': 'application/json', 'x-apikey': apiKey };
  const response = await fetch(url + execPathOf(...(entry.collection.split('/') as [string, string])), {
    method: 'POST',
    headers,
    body: JSON.stringify(entry.request),
  });
  await response.arrayBuffer();
  if (response.status !== 200 && response.status !== 422) throw new Error(`exec of ${entry.name}: ${response.status}`);
  return response.status === 422 ? 'refused' : 'accepted';
}

/** Every tool's verdict on every case; undefined (the reason logged) when the peers cannot be installed. */
export async function mistakeBench(dist: string, log: (text: string) => void): Promise<MistakeRows | undefined> {
  const peers = installPeers(log);
  if (peers === undefined) return undefined;
  const work = mkdtempSync(path.join(tmpdir(), 'facetform-mistakes-'));
  try {
    const cases = mistakeCases();
    const registry = new BundleRegistry(loadBundles(dist));
    // The manifest as the request renders it, before facetform's checks: what a template tool would hand on.
    const manifests = cases.map((entry) => caseCollection(registry, entry).plan.render(entry.request));
    const files = manifests.map((manifest, index) => {
      const file = path.join(work, `case-${String(index).padStart(2, '0')}.yaml`);
      writeFileSync(file, stringify(manifest));
      return file;
    });
    const kinds = [
      ...new Map(
        manifests.map(({ apiVersion, kind }) => [`${apiVersion}|${kind}`, { apiVersion: String(apiVersion), kind: String(kind) }]),
      ).values(),
    ];

    log(`mistakes: ${cases.length} cases through Helm's schema, kubeconform and kubectl-validate …`);
    const helm = cases.map((entry, index) => helmVerdict(peers.helm, entry, manifests[index]!, work));
    const kubeconform = kubeconformVerdicts(peers.kubeconform, files, kinds, work);
    const kubectlValidate = kubectlValidateVerdicts(peers.kubectlValidate, files, work);

    log('mistakes: the same requests to facetform over HTTP …');
    const server = await startOurs(dist);
    const facetform: Array<'refused' | 'accepted'> = [];
    try {
      for (const entry of cases) facetform.push(await facetformVerdict(server.url, entry, BENCH_KEY));
    } finally {
      await server.stop();
    }

    const rows = cases.map((entry, index) => ({
      entry,
      verdicts: {
        'Helm schema': helm[index]!,
        'kubeconform -strict': kubeconform.get(files[index]!)!,
        'kubectl-validate': kubectlValidate.get(files[index]!)!,
        facetform: facetform[index]!,
      },
    }));
    for (const tool of ['kubeconform -strict', 'kubectl-validate', 'Helm schema'] as const)
      checkRefusesSomething(
        tool,
        rows.map(({ verdicts }) => verdicts[tool]),
      );
    return rows;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The bench's rows: facetform refuses every mistake a peer refuses and every tool accepts the controls; README's table is this run's. */
export function mistakeRows(rows: MistakeRows): Row[] {
  const mistakes = rows.filter(({ entry }) => entry.rule !== 'valid');
  const refusedBy = (tool: keyof Verdicts) => mistakes.filter(({ verdicts }) => verdicts[tool] === 'refused').length;
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const current = withTable(readme, mistakesTable(rows)) === readme;
  const missed = missedCases(rows.map(({ entry, verdicts }) => ({ rule: entry.rule, name: entry.name, verdicts })));
  const peers = `Helm schema ${refusedBy('Helm schema')}, kubeconform ${refusedBy('kubeconform -strict')}, kubectl-validate ${refusedBy('kubectl-validate')}`;
  return [
    {
      benchmark: `mistakes caught (${mistakes.length} mistakes, ${rows.length - mistakes.length} controls)`,
      comparedWith: 'Helm schema, kubeconform -strict, kubectl-validate',
      figure: `facetform refuses ${refusedBy('facetform')}; ${peers}${missed.length > 0 ? `; missed: ${missed.join(', ')}` : ''}`,
      goal: 'refuses every mistake a peer refuses, accepts every control',
      met: missed.length === 0,
    },
    {
      benchmark: '',
      comparedWith: "README's table of them",
      figure: current ? 'the same as this run' : 'differs from this run: npx tsx scripts/bench/mistakes.ts --write',
      goal: 'the same',
      met: current,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const log = (text: string) => process.stderr.write(`${text}\n`);
  const dist = mkdtempSync(path.join(tmpdir(), 'facetform-mistakes-dist-'));
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'bin/facetform.js'), 'build', '--out', dist], { cwd: ROOT, stdio: 'ignore' });
    const rows = await mistakeBench(dist, log);
    if (rows !== undefined) {
      const table = mistakesTable(rows);
      console.log(table);
      for (const row of mistakeRows(rows))
        console.log(`${row.benchmark || row.comparedWith}: ${row.figure} (goal ${row.met ? 'met' : 'NOT met'})`);
      const readmeFile = path.join(ROOT, 'README.md');
      const readme = readFileSync(readmeFile, 'utf8');
      const next = withTable(readme, table);
      if (next === readme) console.log("README.md's table is this one");
      else if (process.argv.includes('--write')) (writeFileSync(readmeFile, next), console.log("README.md's table written"));
      else (console.log("README.md's table differs: run with --write"), (process.exitCode = 1));
    }
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
}
