/**
 * Writes test/vectors/pod-containers.jsonl: the pods of test/apiserver/pod-containers.ts as
 * Kubernetes' own code judges them (test/oracle/podspec, k8s.io/kubernetes v1.33.13: the Pod's
 * defaults, then the pod registry's create), for test/apiserver/pod-containers.test.ts to compare
 * src/apiserver/core/pod/ with, without Go. It prints how many agree on the ported paths.
 *
 *   npm run oracle:pod-containers-vectors [-- <seed> <valid> <perRule>]
 *
 * Needs Go (podspec is built on first use into test/oracle/.bin).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { errorLines, isPortedPath, ourContainerErrors, podContainerCases, type Verdict } from '../test/apiserver/pod-containers.js';
import { buildGoProgram, findGo, type GoProgram, ORACLE_DIR } from '../test/helpers/oracle.js';

const ROOT = path.join(ORACLE_DIR, '../..');

const PODSPEC: GoProgram = {
  name: 'podspec',
  pkg: './podspec',
  bin: path.join(ORACLE_DIR, '.bin/podspec'),
  sources: ['podspec/main.go', 'go.mod', 'go.sum'],
  binEnv: 'PODSPEC_BIN',
};
const [seed = 20261205, valid = 40, perRule = 3] = process.argv.slice(2).map(Number);
const out = process.env.POD_VECTORS ?? path.join(ROOT, 'test/vectors/pod-containers.jsonl');

if (!findGo().found && process.env.PODSPEC_BIN === undefined) {
  console.error('Go is missing: podspec (test/oracle/podspec) is a Go program built on first use. The committed vectors stay as they are.');
  process.exit(2);
}
const bin = buildGoProgram(PODSPEC, (line) => console.log(line));
const cases = podContainerCases(seed, valid, perRule);
const input = cases.map(({ manifest }) => JSON.stringify({ manifest })).join('\n') + '\n';
const run = spawnSync(bin, [], { input, encoding: 'utf8', maxBuffer: 256 << 20 });
if (run.status !== 0) throw new Error(`podspec failed (${run.status ?? run.signal}): ${run.stderr}`);
const answers = run.stdout.split('\n').filter((line) => line !== '');
if (answers.length !== cases.length) throw new Error(`podspec answered ${answers.length} of ${cases.length} pods`);

let agree = 0;
const lines = cases.map(({ rule, manifest }, i) => {
  const go = JSON.parse(answers[i]!) as { verdict: string; errors: Verdict[]; decodeError?: string };
  if (go.decodeError !== undefined) throw new Error(`pod ${i} (${rule}) is not decoded: ${go.decodeError}`);
  const outside = go.errors.filter((e) => !isPortedPath(e.field));
  // A generated pod is refused only where the container rules refuse it, or it proves nothing.
  if (outside.length > 0) throw new Error(`pod ${i} (${rule}) is refused outside the ported paths: ${JSON.stringify(outside)}`);
  const ours = errorLines(ourContainerErrors(manifest));
  const theirs = errorLines(go.errors);
  if (JSON.stringify(ours) === JSON.stringify(theirs)) agree++;
  else console.log(`disagree ${rule}:\n  go:   ${theirs.join('\n        ')}\n  ours: ${ours.join('\n        ')}`);
  return JSON.stringify({ rule, manifest, oracle: { verdict: go.verdict, errors: go.errors } });
});
writeFileSync(out, lines.join('\n') + '\n');
const refused = cases.filter((_, i) => JSON.parse(answers[i]!).verdict === 'refuse').length;
console.log(
  `${cases.length} pods (seed ${seed}): ${refused} refused by Go, ${agree} agree with ours on the ported paths; written to ${path.relative(ROOT, out)}`,
);
