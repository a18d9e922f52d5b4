/**
 * The floors of src/, the one place they are declared: each directory under src/ stands on one
 * floor, and a module imports only from its own floor or the floors below it (within a floor, the
 * directories must not import each other in a circle). Kubernetes is on the ground floor: what it
 * says is read by everything above and reads nothing of facetform. src/apiserver/ is a building of
 * its own inside, laid out as Kubernetes' packages stand (APISERVER). test/architecture.test.ts
 * holds src/ to both; `npx tsx scripts/import-graph.ts` prints where they do not hold.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { directoryOf, type Import, SRC } from './import-graph.js';

export interface Floor {
  name: string;
  /** Folders of the building's root, or modules at the root itself (`kinds.ts`). */
  directories: readonly string[];
}

/** From the ground up. */
export const FLOORS: readonly Floor[] = [
  { name: 'ground', directories: ['util'] },
  // What Kubernetes says: its kinds, types and formats (kubernetes-models), and its API server's own validation.
  { name: 'kubernetes', directories: ['apiserver', 'kubernetes'] },
  // facetform's own words, which know nothing of Kubernetes: requests and their problems, request files, templates, releases.
  { name: 'words', directories: ['release', 'request', 'request-file', 'template'] },
  // JSON Schema as facetform validates with it: input schemas, defaults, nulls, Go's regular expressions.
  { name: 'schemas', directories: ['schema'] },
  // A manifest checked as the API server checks it, and written as kubectl reads it.
  { name: 'manifests', directories: ['manifest'] },
  // Custom resources: CRDs, structural schemas, CEL; their checks are parts the kind check runs.
  { name: 'custom resources', directories: ['crd'] },
  { name: 'repositories', directories: ['repository', 'collection', 'render'] },
  { name: 'bundles', directories: ['bundle', 'exec', 'editor-schemas'] },
  { name: 'build and release', directories: ['lint', 'upgrade', 'compiler', 'oci'] },
  { name: 'services', directories: ['dev', 'gitops', 'server'] },
  // The outside faces: the browser console (which reads the server's preview protocol) and the command line.
  { name: 'top', directories: ['console', 'cli'] },
];

/**
 * src/apiserver/, from the ground up, as Kubernetes' Go packages import each other: Go's standard
 * library, k8s.io/apimachinery, the generic registry (k8s.io/apiserver), pkg/apis/core, then the
 * API groups whose validation calls core's (apps and batch will stand there), and on top the
 * registry of kinds, which names every kind's rules.
 */
export const APISERVER_FLOORS: readonly Floor[] = [
  { name: "Go's standard library", directories: ['golang'] },
  { name: 'apimachinery', directories: ['apimachinery'] },
  { name: 'generic registry', directories: ['registry'] },
  { name: 'core', directories: ['core'] },
  { name: 'API groups', directories: ['apiextensions', 'networking', 'storage'] },
  { name: 'kinds', directories: ['kinds.ts'] },
];

/** A folder of src/ held to floors: `prefix` is its path under src/ ('' for src/ itself). */
export interface Building {
  prefix: string;
  floors: readonly Floor[];
}

export const SRC_BUILDING: Building = { prefix: '', floors: FLOORS };
export const APISERVER: Building = { prefix: 'apiserver/', floors: APISERVER_FLOORS };

/** Where a file of src/ stands in a building: its first folder under the building's root (or its own name there); undefined outside it. */
export const placeOf = (building: Building, file: string): string | undefined =>
  file.startsWith(building.prefix) ? directoryOf(file.slice(building.prefix.length)) : undefined;

/** The floor a place is declared on, by its place from the ground (0); undefined when none declares it. */
export function floorOf(directory: string, building = SRC_BUILDING): number | undefined {
  const index = building.floors.findIndex((floor) => floor.directories.includes(directory));
  return index === -1 ? undefined : index;
}

/** The imports that start and end inside a building. */
export const importsWithin = (imports: readonly Import[], building: Building): Import[] =>
  imports.filter((edge) => placeOf(building, edge.from) !== undefined && placeOf(building, edge.to) !== undefined);

const floorOfFile = (building: Building, file: string): number | undefined => {
  const place = placeOf(building, file);
  return place === undefined ? undefined : floorOf(place, building);
};

/** Imports from a floor to a higher one: the building upside down. */
export function upwardImports(imports: readonly Import[], building = SRC_BUILDING): Import[] {
  return imports.filter((edge) => {
    const [from, to] = [floorOfFile(building, edge.from), floorOfFile(building, edge.to)];
    return from !== undefined && to !== undefined && to > from;
  });
}

/** What a building holds at its root (directories, and modules outside any): each must stand on a floor. */
export function placesIn(building = SRC_BUILDING, root = SRC): string[] {
  return readdirSync(path.join(root, building.prefix), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() || entry.name.endsWith('.ts'))
    .map((entry) => entry.name)
    .sort();
}

/** Places no floor declares, and places declared more than once or that the building does not have. */
export function floorProblems(building = SRC_BUILDING, root = SRC): string[] {
  const places = placesIn(building, root);
  const declared = building.floors.flatMap((floor) => floor.directories);
  const where = `src/${building.prefix}`;
  return [
    ...places.filter((place) => floorOf(place, building) === undefined).map((place) => `${where}${place} stands on no floor`),
    ...declared.filter((name, index) => declared.indexOf(name) !== index).map((name) => `${name} is declared on two floors`),
    ...declared.filter((name) => !places.includes(name)).map((name) => `a floor declares ${name}, which ${where} does not have`),
  ];
}

export const describeFloors = (edge: Import, building = SRC_BUILDING): string =>
  `${building.floors[floorOfFile(building, edge.from)!]!.name} imports ${building.floors[floorOfFile(building, edge.to)!]!.name}`;
