/**
 * src/ is a building (test/helpers/architecture.ts declares its floors): no module reaches up a
 * floor, and no modules or directories import each other in a circle. Every failure names the
 * imports, `src/<file>:<line> → src/<target>`, read from the files as they are.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APISERVER, describeFloors, floorProblems, importsWithin, placeOf, upwardImports } from './helpers/architecture.js';
import { cyclesOf, describeImport, directoryOf, type Import, importsOf, SRC } from './helpers/import-graph.js';

const imports = importsOf();
/** Each circle as the imports that close it; of directories, each import after the two it joins. */
const circles = (cycles: Import[][], joined = (edge: Import) => describeImport(edge)) =>
  cycles.map((cycle) => cycle.map(joined).join(', then '));

describe('the import graph of src/', () => {
  it('is read from every module, each import naming a file there', () => {
    // Not reading imports would pass everything below: most modules import another.
    expect(new Set(imports.map((edge) => edge.from)).size).toBeGreaterThan(200);
    expect(imports.filter((edge) => !existsSync(path.join(SRC, edge.to))).map(describeImport)).toEqual([]);
  });

  it('has no circle of modules', () => {
    expect(circles(cyclesOf(imports))).toEqual([]);
  });

  it('has no circle of directories', () => {
    const joined = (edge: Import) => `${directoryOf(edge.from)} → ${directoryOf(edge.to)} by ${describeImport(edge)}`;
    expect(circles(cyclesOf(imports, directoryOf), joined)).toEqual([]);
  });

  it('stands every directory on one floor', () => {
    expect(floorProblems()).toEqual([]);
  });

  it('never imports from a floor above', () => {
    expect(upwardImports(imports).map((edge) => `${describeImport(edge)} (${describeFloors(edge)})`)).toEqual([]);
  });
});

describe('src/apiserver/, laid out as Kubernetes lays out its packages', () => {
  const within = importsWithin(imports, APISERVER);
  const place = (file: string) => placeOf(APISERVER, file)!;

  it('is read: the kinds import core, core imports apimachinery, apimachinery imports Go', () => {
    const pairs = new Set(within.map((edge) => `${place(edge.from)} → ${place(edge.to)}`));
    for (const pair of ['kinds.ts → core', 'core → apimachinery', 'apimachinery → golang', 'networking → core'])
      expect(pairs, pair).toContain(pair);
  });

  it('stands every folder and module on one floor', () => {
    expect(floorProblems(APISERVER)).toEqual([]);
  });

  it('never imports from a floor above: Go, then apimachinery, the registry, core, the groups, the kinds', () => {
    expect(upwardImports(within, APISERVER).map((edge) => `${describeImport(edge)} (${describeFloors(edge, APISERVER)})`)).toEqual([]);
  });

  it('has no circle of folders', () => {
    const joined = (edge: Import) => `${place(edge.from)} → ${place(edge.to)} by ${describeImport(edge)}`;
    expect(circles(cyclesOf(within, place), joined)).toEqual([]);
  });
});
