/**
 * The floors of src/, the one place they are declared: each directory under src/ stands on one
 * floor, and a module imports only from its own floor or the floors below it (within a floor, the
 * directories must not import each other in a circle). Kubernetes is on the ground floor: what it
 * says is read by everything above and reads nothing of facetform. test/architecture.test.ts holds
 * src/ to this; `npx tsx scripts/import-graph.ts` prints where it does not hold.
 */
import { readdirSync } from 'node:fs';
import { directoryOf, type Import, SRC } from './import-graph.js';

export interface Floor {
  name: string;
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

/** The floor a directory is declared on, by its place from the ground (0); undefined when none declares it. */
export function floorOf(directory: string): number | undefined {
  const index = FLOORS.findIndex((floor) => floor.directories.includes(directory));
  return index === -1 ? undefined : index;
}

/** Imports from a floor to a higher one: the building upside down. */
export function upwardImports(imports: readonly Import[]): Import[] {
  return imports.filter((edge) => {
    const [from, to] = [floorOf(directoryOf(edge.from)), floorOf(directoryOf(edge.to))];
    return from !== undefined && to !== undefined && to > from;
  });
}

/** What src/ holds at its top (directories, and modules outside any): each must stand on a floor. */
export function placesInSrc(root = SRC): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() || entry.name.endsWith('.ts'))
    .map((entry) => entry.name)
    .sort();
}

/** Places of src/ no floor declares, and directories declared more than once or that src/ does not have. */
export function floorProblems(root = SRC): string[] {
  const places = placesInSrc(root);
  const declared = FLOORS.flatMap((floor) => floor.directories);
  return [
    ...places.filter((place) => floorOf(place) === undefined).map((place) => `src/${place} stands on no floor`),
    ...declared.filter((name, index) => declared.indexOf(name) !== index).map((name) => `${name} is declared on two floors`),
    ...declared.filter((name) => !places.includes(name)).map((name) => `a floor declares ${name}, which src/ does not have`),
  ];
}

export const describeFloors = (edge: Import): string =>
  `${FLOORS[floorOf(directoryOf(edge.from))!]!.name} imports ${FLOORS[floorOf(directoryOf(edge.to))!]!.name}`;
