/**
 * Writes test/vectors/<Kind>.jsonl: manifests of every shipped kind (test/apiserver/arbitraries.ts)
 * judged by the oracle (test/oracle, Kubernetes 1.33's own validation), for `npm test` to compare
 * our check with, without Go. Reproducible: a fixed seed unless told otherwise.
 *
 *   npm run oracle:vectors [-- --count 2000 --gateway-count 300 --seed 20261126 --kinds Service,Secret]
 *
 * Gateway API's kinds (test/fixtures/realworld/gateway-api) get --gateway-count each, and its own
 * examples, valid and invalid, their verdicts in test/vectors/gateway-api-examples.jsonl.
 *
 * Lines a run of `npm run test:oracle` added (source `differential …`) and cases written by hand
 * (source `case …`, scripts/oracle-case-vectors.ts) are kept, judged again.
 * Needs Go (the oracle is built on first use, minutes; later runs reuse test/oracle/.bin).
 */
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { shippedKindCases } from '../test/apiserver/arbitraries.js';
import { gatewayKindCases, judgeGatewayExamples, writeExampleVerdicts } from '../test/apiserver/gateway-api.js';
import type { Judged } from '../test/apiserver/compare.js';
import { formatRuleSplit } from '../test/apiserver/report.js';
import { judgeCases, oracleOrExit, option, sampleCases } from '../test/apiserver/run.js';
import { crdReference, readVectors, stableVerdict, type Vector, vectorFile, writeVectors } from '../test/apiserver/vectors.js';
import { judge } from '../test/helpers/oracle.js';

const count = Number(option('count', 'ORACLE_VECTORS', '2000'));
const gatewayCount = Number(option('gateway-count', 'ORACLE_GATEWAY_VECTORS', '300'));
const seed = Number(option('seed', 'ORACLE_SEED', '20261126'));
const only = option('kinds', 'ORACLE_KINDS', '').split(',').filter(Boolean);
// Big manifests (the annotation and data size limits) are kept, but not so many that a file grows past a few MB.
const LARGE_BYTES = 1.1 * 1024 * 1024;

const bin = oracleOrExit();
const gateway = new Set(gatewayKindCases().map((k) => k.kind.kind));
const kinds = [...shippedKindCases(), ...gatewayKindCases()].filter((k) => only.length === 0 || only.includes(k.kind.kind));
const names = kinds.map((k) => k.kind.kind);
if (new Set(names).size !== names.length)
  throw new Error(`two shipped kinds share a name (${names.join(', ')}): vector files are named by kind`);
console.log(`oracle vectors: ${count} per kind (${gatewayCount} per Gateway API kind), seed ${seed}, kinds ${names.join(', ')}`);
if (kinds.some((k) => gateway.has(k.kind.kind))) {
  const examples = await judgeGatewayExamples(bin);
  writeExampleVerdicts(examples);
  console.log(`Gateway API's examples: ${examples.length} judged into test/vectors/gateway-api-examples.jsonl`);
}

const split: Array<Pick<Judged, 'kind' | 'rule' | 'oracle'>> = [];
let judgedCount = 0;
let judgeTime = 0;
for (const k of kinds) {
  const cases = sampleCases(k, gateway.has(k.kind.kind) ? gatewayCount : count, seed, { largeBytes: LARGE_BYTES });
  let started = performance.now();
  const verdicts = await judgeCases(k, cases, bin);
  judgeTime += performance.now() - started;
  judgedCount += cases.length;
  const crd = crdReference(k.kind);
  const generated: Vector[] = cases.map((c, i) => ({
    rule: c.rule,
    manifest: c.manifest,
    ...(crd === undefined ? {} : { crd }),
    oracle: stableVerdict(verdicts[i]!),
    source: `generated seed=${seed}`,
  }));
  // Found by the differential run or written by hand: kept, their verdicts asked again (the oracle may have changed).
  const found = readVectors(k.kind.kind)
    .map(({ vector }) => vector)
    .filter((vector) => !vector.source.startsWith('generated'));
  started = performance.now();
  const again = await judge(
    found.map((v) => ({ manifest: v.manifest, ...(k.crd === undefined ? {} : { crd: k.crd }) })),
    bin,
  );
  judgeTime += performance.now() - started;
  judgedCount += found.length;
  const kept = found.map((v, i) => ({ ...v, ...(crd === undefined ? {} : { crd }), oracle: stableVerdict(again[i]!) }));
  writeVectors(k.kind.kind, [...generated, ...kept]);
  for (const [i, c] of cases.entries()) split.push({ kind: k.kind.kind, rule: c.rule, oracle: verdicts[i]! });
  const accepted = verdicts.filter((v) => v.verdict === 'accept').length;
  const size = statSync(vectorFile(k.kind.kind)).size;
  console.log(
    `${k.kind.kind.padEnd(26)} ${String(generated.length).padStart(6)} generated + ${String(kept.length).padStart(4)} kept   accepted ${String(accepted).padStart(5)}  refused ${String(verdicts.length - accepted).padStart(5)}   ${(size / 1024 / 1024).toFixed(2)} MB`,
  );
}
console.log(
  `\nthe oracle judged ${judgedCount} manifests in ${(judgeTime / 1000).toFixed(1)} s: ${Math.round(judgedCount / (judgeTime / 1000))} manifests/s (process start included)`,
);
console.log(`\nthe oracle's verdicts by rule class:\n${formatRuleSplit(split)}`);
