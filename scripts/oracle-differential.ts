/**
 * `npm run test:oracle`: a differential run of our check against Kubernetes' own (test/oracle, Go).
 * Builds the oracle, generates ORACLE_RUNS fresh manifests of every shipped kind from a new random
 * seed (printed; ORACLE_SEED repeats a run), has the oracle judge them, compares as `npm test` does
 * with the committed vectors (test/apiserver/compare.ts), prints counts per kind and by rule class,
 * saves every disagreement as a new line of test/vectors/<Kind>.jsonl (so `npm test` keeps failing
 * on it until it is fixed), and fails when there was any. Without Go it says so and fails.
 *
 *   ORACLE_RUNS=10000 ORACLE_GATEWAY_RUNS=2000 ORACLE_SEED=123 ORACLE_KINDS=Service,Secret ORACLE_SAVE_MAX=all npm run test:oracle
 *
 * Gateway API's ten kinds (test/apiserver/gateway-api.ts) are run too, ORACLE_GATEWAY_RUNS each.
 *
 * ORACLE_SAVE_MAX caps the lines saved per kind (`all` by default; 0 saves none).
 */
import { performance } from 'node:perf_hooks';
import { shippedKindCases } from '../test/apiserver/arbitraries.js';
import { gatewayKindCases } from '../test/apiserver/gateway-api.js';
import { compare, type Judged } from '../test/apiserver/compare.js';
import { formatMessageSummary, formatReport, formatRuleSplit } from '../test/apiserver/report.js';
import { judgeCases, oracleOrExit, option, sampleCases } from '../test/apiserver/run.js';
import { appendVectors, checkOf, crdReference, readVectors, stableVerdict, type Vector } from '../test/apiserver/vectors.js';

const runs = Number(option('runs', 'ORACLE_RUNS', '10000'));
// Gateway API's kinds are mutations of a hundred examples: fewer runs ask them as much.
const gatewayRuns = Number(option('gateway-runs', 'ORACLE_GATEWAY_RUNS', '2000'));
const seed = Number(option('seed', 'ORACLE_SEED', String(Math.floor(Math.random() * 2 ** 31))));
const only = option('kinds', 'ORACLE_KINDS', '').split(',').filter(Boolean);
const saveMaxOption = option('save-max', 'ORACLE_SAVE_MAX', 'all');
const saveMax = saveMaxOption === 'all' ? Infinity : Number(saveMaxOption);

const bin = oracleOrExit();
// The shipped kinds, and Gateway API's ten (its CRDs and examples, test/fixtures/realworld).
const gateway = new Set(gatewayKindCases().map((k) => k.kind.kind));
const kinds = [...shippedKindCases(), ...gatewayKindCases()].filter((k) => only.length === 0 || only.includes(k.kind.kind));
console.log(
  `oracle differential: ${runs} manifests per kind, seed ${seed} (ORACLE_SEED=${seed} repeats this run), kinds ${kinds.map((k) => k.kind.kind).join(', ')}`,
);

const judged: Judged[] = [];
const saved: string[] = [];
const times = { generate: 0, oracle: 0, ours: 0 };
for (const k of kinds) {
  let started = performance.now();
  const cases = sampleCases(k, gateway.has(k.kind.kind) ? gatewayRuns : runs, seed);
  times.generate += performance.now() - started;
  started = performance.now();
  const verdicts = await judgeCases(k, cases, bin);
  times.oracle += performance.now() - started;
  started = performance.now();
  const check = checkOf(k.kind);
  const mine = cases.map((c, i) => ({
    kind: k.kind.kind,
    where: `seed ${seed} #${i}`,
    rule: c.rule,
    manifest: c.manifest,
    oracle: verdicts[i]!,
    comparison: compare(check, c.manifest, verdicts[i]!),
  }));
  times.ours += performance.now() - started;
  judged.push(...mine);
  // Every disagreement (once per manifest, none already in the file) becomes a vector.
  const known = new Set(readVectors(k.kind.kind).map(({ vector }) => JSON.stringify(vector.manifest)));
  const crd = crdReference(k.kind);
  const fresh: Vector[] = [];
  for (const j of mine) {
    if (j.comparison.agree || fresh.length >= saveMax) continue;
    const text = JSON.stringify(j.manifest);
    if (known.has(text)) continue;
    known.add(text);
    fresh.push({
      rule: j.rule,
      manifest: j.manifest as Vector['manifest'],
      ...(crd === undefined ? {} : { crd }),
      oracle: stableVerdict(j.oracle),
      source: `differential seed=${seed}`,
    });
  }
  appendVectors(k.kind.kind, fresh);
  if (fresh.length > 0) saved.push(`${fresh.length} to test/vectors/${k.kind.kind}.jsonl`);
  const disagreements = mine.filter((j) => !j.comparison.agree).length;
  console.log(`${k.kind.kind.padEnd(26)} ${cases.length} judged, ${disagreements} disagreements`);
}

const total = judged.length;
console.log(
  `\ntimes: generating ${(times.generate / 1000).toFixed(1)} s, the oracle ${(times.oracle / 1000).toFixed(1)} s (${Math.round(total / (times.oracle / 1000))} manifests/s), our check ${(times.ours / 1000).toFixed(1)} s`,
);
console.log(`\nthe oracle's verdicts by rule class:\n${formatRuleSplit(judged)}`);
console.log(`\n${formatMessageSummary(judged)}`);
const disagreements = judged.filter((j) => !j.comparison.agree);
console.log(`\n${formatReport(judged)}`);
if (disagreements.length > 0) {
  console.log(
    `\nsaved as vectors: ${saved.length > 0 ? saved.join(', ') : 'none (already saved, or ORACLE_SAVE_MAX)'}; \`npm test\` fails on them until they agree.`,
  );
  console.log(`repeat this run with ORACLE_SEED=${seed} ORACLE_RUNS=${runs}`);
  process.exitCode = 1;
} else {
  console.log(`\nall ${total} manifests judged as the oracle judges them (seed ${seed})`);
}
