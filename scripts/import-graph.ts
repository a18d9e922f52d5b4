/**
 * The import graph of src/ measured, as test/architecture.test.ts judges it: circles of modules and
 * of directories, imports up a floor, directories on no floor; then which directory imports which,
 * with how many imports, floor by floor. `npx tsx scripts/import-graph.ts`; exit 1 when a rule breaks.
 */
import { APISERVER, describeFloors, FLOORS, floorOf, floorProblems, importsWithin, upwardImports } from '../test/helpers/architecture.js';
import { cyclesOf, describeImport, directoryOf, importsOf } from '../test/helpers/import-graph.js';

const imports = importsOf();
const sections: Array<[string, string[]]> = [
  ['circles of modules', cyclesOf(imports).map((cycle) => cycle.map(describeImport).join('\n    '))],
  ['circles of directories', cyclesOf(imports, directoryOf).map((cycle) => cycle.map(describeImport).join('\n    '))],
  ['imports up a floor', upwardImports(imports).map((edge) => `${describeImport(edge)} (${describeFloors(edge)})`)],
  ['floors', floorProblems()],
  [
    'imports up a floor of src/apiserver/',
    upwardImports(importsWithin(imports, APISERVER), APISERVER).map(
      (edge) => `${describeImport(edge)} (${describeFloors(edge, APISERVER)})`,
    ),
  ],
  ['floors of src/apiserver/', floorProblems(APISERVER)],
];
for (const [title, found] of sections) console.log(`${title}: ${found.length === 0 ? 'none' : `\n  ${found.join('\n  ')}`}`);

const between = new Map<string, number>();
for (const edge of imports) {
  const [from, to] = [directoryOf(edge.from), directoryOf(edge.to)];
  if (from !== to) between.set(`${from} → ${to}`, (between.get(`${from} → ${to}`) ?? 0) + 1);
}
console.log(`\n${imports.length} imports from ${new Set(imports.map((edge) => edge.from)).size} modules; between directories:`);
const floorName = (directory: string) => FLOORS[floorOf(directory) ?? -1]?.name ?? 'no floor';
for (const [pair, count] of [...between].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const [from] = pair.split(' → ') as [string];
  console.log(`  ${floorName(from).padEnd(18)} ${pair} (${count})`);
}
process.exitCode = sections.some(([, found]) => found.length > 0) ? 1 : 0;
