/**
 * Adds the cases written by hand in test/apiserver to test/vectors/<Kind>.jsonl, judged by the
 * oracle, each set under its source (`case …`), replacing the lines of that source;
 * `npm run oracle:vectors` keeps them and asks their verdicts again.
 *
 *   npx tsx scripts/oracle-case-vectors.ts
 */
import { HUGE_QUANTITY_CASES } from '../test/apiserver/huge-quantities.js';
import { NULL_MAP_VALUE_CASES } from '../test/apiserver/null-map-values.js';
import { oracleOrExit } from '../test/apiserver/run.js';
import { type HandWrittenCase, readVectors, stableVerdict, writeVectors } from '../test/apiserver/vectors.js';
import { judge } from '../test/helpers/oracle.js';

const CASE_SETS: Array<{ source: string; cases: HandWrittenCase[] }> = [
  { source: 'case null as a map value', cases: NULL_MAP_VALUE_CASES },
  { source: 'case an exponent of 100,000', cases: HUGE_QUANTITY_CASES },
];

const bin = oracleOrExit();
for (const { source, cases } of CASE_SETS) {
  const verdicts = await judge(
    cases.map((c) => ({ manifest: c.manifest })),
    bin,
  );
  for (const kind of new Set(cases.map((c) => c.kind))) {
    // The set's lines as written before, under this source or an older spelling of it, give way to the new ones.
    const kept = readVectors(kind)
      .map(({ vector }) => vector)
      .filter((vector) => vector.source !== source && !/^(fixed|case) issue 41/.test(vector.source));
    const written = cases.flatMap((c, i) =>
      c.kind === kind ? [{ rule: c.rule, manifest: c.manifest, oracle: stableVerdict(verdicts[i]!), source }] : [],
    );
    writeVectors(kind, [...kept, ...written]);
    for (const vector of written)
      console.log(`${kind} ${vector.rule}: ${vector.oracle.verdict} ${vector.oracle.errors.map((e) => e.field).join(', ')}`);
  }
}
