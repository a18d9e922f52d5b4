/**
 * Writes test/vectors/cel-cost.jsonl: what Kubernetes 1.33's own code (test/oracle/celcost) says of
 * the cost of CRD rules, for test/crd/cel-cost.test.ts to compare ours with, without Go:
 *   - estimates: each rule of test/helpers/cel-cost-cases.ts in four sizes and in randomly bounded
 *     schemas (seeded), each alone in an unbounded and a tight schema (for the errors one rule
 *     gives), and the shipped CRDs and Gateway API's;
 *   - runs: each rule on custom resources drawn at random within its bounds, and the resources the
 *     per-call limit and the budget of a resource stop.
 *
 *   npm run oracle:cel-cost-vectors [-- --seed 20261127]
 *
 * Needs Go (celcost is built on first use into test/oracle/.bin, minutes the first time).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { BOUNDS, MESSAGE_RULES, NESTED_RULES, random, randomSizer, resourceSchema, SPEC_RULES } from '../test/helpers/cel-cost-cases.js';
import { limitCases, randomSpec, resource } from '../test/helpers/cel-cost-objects.js';
import { CEL_COST_VECTORS, CELCOST, type CostVector } from '../test/helpers/cel-cost-vectors.js';
import { buildGoProgram, findGo } from '../test/helpers/oracle.js';
import { ROOT } from '../test/helpers/repos.js';

const seedAt = process.argv.indexOf('--seed');
const seed = seedAt > 0 ? Number(process.argv[seedAt + 1]) : 20261127;

if (!findGo().found && process.env.CELCOST_BIN === undefined) {
  console.error(
    `Go is missing: \`${process.env.GO ?? 'go'}\` does not run. celcost (test/oracle/celcost, Kubernetes' CRD cost estimate and cost tracker) is a Go program built on first use and needs Go 1.26 (see docs/reliability.md): install Go, or set CELCOST_BIN to a built celcost. The committed vectors stay as they are.`,
  );
  process.exit(2);
}
let bin: string;
try {
  bin = buildGoProgram(CELCOST, (line) => console.log(line));
} catch (error) {
  console.error(`celcost cannot be built: ${(error as Error).message}`);
  process.exit(2);
}

type Input = { kind: 'estimate'; source: string; schema: Record<string, unknown> } | Omit<Extract<CostVector, { kind: 'runtime' }>, 'go'>;
const inputs: Input[] = [];
const estimate = (source: string, schema: Record<string, unknown>) => inputs.push({ kind: 'estimate', source, schema });
const all = [...SPEC_RULES.map((rule) => ({ rule })), ...MESSAGE_RULES];

for (const bounds of BOUNDS) estimate(`every rule, ${bounds}`, resourceSchema(bounds, all, NESTED_RULES));
const next = random(seed);
for (let i = 0; i < 20; i++) estimate(`every rule, random bounds seed=${seed} #${i}`, resourceSchema(randomSizer(next), all, NESTED_RULES));
for (const bounds of ['unbounded', 'tight'] as const)
  for (const rule of all) estimate(`${JSON.stringify(rule.rule)} alone, ${bounds}`, resourceSchema(bounds, [rule]));
const crdFiles = [
  ...readdirSync(path.join(ROOT, 'repos')).flatMap((repo) => {
    const dir = path.join(ROOT, 'repos', repo, 'crds');
    try {
      return readdirSync(dir).map((file) => path.join(dir, file));
    } catch {
      return [];
    }
  }),
  ...readdirSync(path.join(ROOT, 'test/fixtures/realworld/gateway-api/config/crd/standard')).map((file) =>
    path.join(ROOT, 'test/fixtures/realworld/gateway-api/config/crd/standard', file),
  ),
];
for (const file of crdFiles) {
  for (const document of parseAllDocuments(readFileSync(file, 'utf8'))) {
    const crd = document.toJS() as {
      spec?: { versions?: Array<{ name: string; schema?: { openAPIV3Schema?: Record<string, unknown> } }> };
    };
    for (const version of crd.spec?.versions ?? []) {
      const schema = version.schema?.openAPIV3Schema;
      if (schema !== undefined) estimate(`${path.relative(ROOT, file)} ${version.name}`, schema);
    }
  }
}

const runs = random(seed + 1);
for (const rule of [...all, ...NESTED_RULES.map(({ rule }) => ({ rule }))]) {
  const schema = resourceSchema(
    'bounded',
    all.includes(rule) ? [rule] : [],
    all.includes(rule) ? [] : NESTED_RULES.filter((n) => n.rule === rule.rule),
  );
  for (let i = 0; i < 3; i++)
    inputs.push({ kind: 'runtime', source: `${JSON.stringify(rule.rule)} seed=${seed + 1}`, schema, object: resource(randomSpec(runs)) });
}
for (const { source, schema, object } of limitCases()) inputs.push({ kind: 'runtime', source, schema, object });

const stdin =
  inputs
    .map((input) => JSON.stringify(input.kind === 'runtime' ? { schema: input.schema, object: input.object } : { schema: input.schema }))
    .join('\n') + '\n';
const run = spawnSync(bin, [], { input: stdin, encoding: 'utf8', maxBuffer: 256 << 20 });
if (run.status !== 0) {
  console.error(`celcost failed (${run.status ?? run.signal}): ${run.stderr}`);
  process.exit(1);
}
const answers = run.stdout.split('\n').filter((line) => line !== '');
if (answers.length !== inputs.length) throw new Error(`celcost answered ${answers.length} of ${inputs.length} inputs`);

const vectors = inputs.map((input, i): CostVector => {
  const go = JSON.parse(answers[i]!) as { fatal?: string; rules?: unknown[]; errors: unknown[]; remaining?: number };
  if (go.fatal !== undefined) throw new Error(`celcost could not read ${input.source}: ${go.fatal}`);
  return input.kind === 'estimate'
    ? ({ ...input, go: { rules: go.rules ?? [], errors: go.errors } } as CostVector)
    : ({ ...input, go: { remaining: go.remaining!, errors: go.errors } } as CostVector);
});
writeFileSync(CEL_COST_VECTORS, vectors.map((vector) => JSON.stringify(vector)).join('\n') + '\n');

const estimates = vectors.filter((v) => v.kind === 'estimate');
const rules = estimates.reduce((n, v) => n + (v.kind === 'estimate' ? v.go.rules.length : 0), 0);
const refused = estimates.filter((v) => v.go.errors.length > 0).length;
const stopped = vectors.filter((v) => v.kind === 'runtime' && v.go.remaining < 0).length;
console.log(
  `${vectors.length} vectors written to ${path.relative(ROOT, CEL_COST_VECTORS)}: ${estimates.length} schemas (${rules} rule estimates, ${refused} schemas over a budget), ` +
    `${vectors.length - estimates.length} runs (${stopped} stopped by a limit)`,
);
