/**
 * Adds the fixed cases of test/apiserver (null as a map's value, issue 41) to test/vectors/<Kind>.jsonl,
 * judged by the oracle, replacing the lines of the same source; `npm run oracle:vectors` keeps them.
 *
 *   npx tsx scripts/oracle-fixed-vectors.ts
 */
import { NULL_MAP_VALUE_CASES } from '../test/apiserver/null-map-values.js';
import { oracleOrExit } from '../test/apiserver/run.js';
import { readVectors, stableVerdict, writeVectors } from '../test/apiserver/vectors.js';
import { judge } from '../test/helpers/oracle.js';

const SOURCE = 'fixed issue 41: null as a map value';
const bin = oracleOrExit();
const verdicts = await judge(
  NULL_MAP_VALUE_CASES.map((c) => ({ manifest: c.manifest })),
  bin,
);
for (const kind of new Set(NULL_MAP_VALUE_CASES.map((c) => c.kind))) {
  const kept = readVectors(kind)
    .map(({ vector }) => vector)
    .filter((vector) => vector.source !== SOURCE);
  const fixed = NULL_MAP_VALUE_CASES.flatMap((c, i) =>
    c.kind === kind ? [{ rule: c.rule, manifest: c.manifest, oracle: stableVerdict(verdicts[i]!), source: SOURCE }] : [],
  );
  writeVectors(kind, [...kept, ...fixed]);
  for (const vector of fixed)
    console.log(`${kind} ${vector.rule}: ${vector.oracle.verdict} ${vector.oracle.errors.map((e) => e.field).join(', ')}`);
}
