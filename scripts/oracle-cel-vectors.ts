/**
 * Writes test/vectors/cel-kubernetes-libraries.jsonl: the expressions of
 * test/crd/cel-kubernetes-cases.ts as Kubernetes' own CEL environment for CRD rules
 * (test/oracle/celeval, k8s.io/apiserver v0.33.13) compiles and evaluates them, for
 * test/crd/cel-kubernetes-libraries.test.ts to compare ours with, without Go.
 *
 *   npm run oracle:cel-vectors
 *
 * Needs Go (celeval is built on first use into test/oracle/.bin, minutes the first time).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CEL_LIBRARY_CASES } from '../test/crd/cel-kubernetes-cases.js';
import { CEL_VECTORS, type CelOutcome, type CelVector } from '../test/helpers/cel-libraries.js';
import { buildGoProgram, findGo, type GoProgram, ORACLE_DIR } from '../test/helpers/oracle.js';

const CELEVAL: GoProgram = {
  name: 'celeval',
  pkg: './celeval',
  bin: path.join(ORACLE_DIR, '.bin/celeval'),
  sources: ['celeval/main.go', 'go.mod', 'go.sum'],
  binEnv: 'CELEVAL_BIN',
};

if (!findGo().found && process.env.CELEVAL_BIN === undefined) {
  console.error(
    `Go is missing: \`${process.env.GO ?? 'go'}\` does not run. celeval (test/oracle/celeval, Kubernetes' CEL environment) is a Go program built on first use and needs Go 1.26 (see docs/reliability.md): install Go, or set CELEVAL_BIN to a built celeval. The committed vectors stay as they are.`,
  );
  process.exit(2);
}
let bin: string;
try {
  bin = buildGoProgram(CELEVAL, (line) => console.log(line));
} catch (error) {
  console.error(`celeval cannot be built: ${(error as Error).message}`);
  process.exit(2);
}

const input = CEL_LIBRARY_CASES.map(({ expr, self, schema }) => JSON.stringify({ expr, self, schema })).join('\n') + '\n';
const run = spawnSync(bin, [], { input, encoding: 'utf8', maxBuffer: 256 << 20 });
if (run.status !== 0) {
  console.error(`celeval failed (${run.status ?? run.signal}): ${run.stderr}`);
  process.exit(1);
}
const answers = run.stdout.split('\n').filter((line) => line !== '');
if (answers.length !== CEL_LIBRARY_CASES.length) throw new Error(`celeval answered ${answers.length} of ${CEL_LIBRARY_CASES.length} cases`);

const vectors: CelVector[] = CEL_LIBRARY_CASES.map((c, i) => {
  const go = JSON.parse(answers[i]!) as CelOutcome & { inputError?: string };
  if (go.inputError !== undefined) throw new Error(`celeval could not read case ${JSON.stringify(c)}: ${go.inputError}`);
  return { library: c.library, expr: c.expr, ...(c.schema === undefined ? {} : { self: c.self, schema: c.schema }), go };
});
writeFileSync(CEL_VECTORS, vectors.map((v) => JSON.stringify(v)).join('\n') + '\n');

const count = new Map<string, Record<string, number>>();
for (const { library, go } of vectors) {
  const tally = count.get(library) ?? {};
  const kind = Object.keys(go)[0]!;
  tally[kind] = (tally[kind] ?? 0) + 1;
  count.set(library, tally);
}
console.log(`${vectors.length} vectors written to ${path.relative(process.cwd(), CEL_VECTORS)} (${run.stderr.trim()})`);
for (const [library, tally] of count)
  console.log(
    `  ${library.padEnd(12)} ${Object.entries(tally)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ')}`,
  );
