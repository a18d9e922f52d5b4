/**
 * The import graph of src/: every relative import between its files, read by TypeScript's own
 * pre-processor (static, type-only, re-exports and dynamic `import()` alike, so no form is missed),
 * and the cycles in it, of files and of directories (a directory is the first folder under src/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface Import {
  /** Both relative to src/, with `/`: `crd/crd.ts`. */
  from: string;
  to: string;
  line: number;
}

/** The src/ folder of this checkout. */
export const SRC = path.resolve(import.meta.dirname, '../../src');

/** Every relative import of every .ts file under `root` that names a file under `root`. */
export function importsOf(root = SRC): Import[] {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts'))
    .sort();
  const imports: Import[] = [];
  for (const from of files) {
    const text = readFileSync(path.join(root, from), 'utf8');
    const lineStarts = [0, ...[...text.matchAll(/\n/g)].map((newline) => newline.index + 1)];
    for (const named of ts.preProcessFile(text, true, true).importedFiles) {
      if (!named.fileName.startsWith('.')) continue;
      // NodeNext: `./x.js` names the source `./x.ts`.
      const to = path.posix.join(path.posix.dirname(from), named.fileName).replace(/\.js$/, '.ts');
      const line = lineStarts.findLastIndex((start) => start <= named.pos) + 1;
      imports.push({ from, to, line });
    }
  }
  return imports;
}

/** The directory a file of src/ sits in: its first folder. */
export const directoryOf = (file: string): string => file.split('/')[0]!;

export const describeImport = (edge: Import): string => `src/${edge.from}:${edge.line} → src/${edge.to}`;

/** One cycle per strongly connected component of the graph whose nodes `nodeOf` names, as the imports that close it. */
export function cyclesOf(imports: Import[], nodeOf: (file: string) => string = (file) => file): Import[][] {
  const edges = new Map<string, Map<string, Import>>();
  for (const edge of imports) {
    const from = nodeOf(edge.from);
    const to = nodeOf(edge.to);
    // Within one node (a directory's own files) is no arrow between nodes.
    if (from === to) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    // The first import between two nodes stands for them all.
    if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, edge);
  }
  const cycles: Import[][] = [];
  for (const component of stronglyConnected(edges)) {
    const start = [...component].sort()[0]!;
    const cycle = shortestCycle(edges, component, start);
    if (cycle !== undefined) cycles.push(cycle);
  }
  return cycles;
}

/** Tarjan's algorithm: the components of more than one node. */
function stronglyConnected(edges: Map<string, Map<string, Import>>): Set<string>[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: Set<string>[] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = new Set<string>();
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.add(member);
    } while (member !== node);
    if (component.size > 1) components.push(component);
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

/** The shortest way from `start` back to itself inside `component`, found breadth first. */
function shortestCycle(edges: Map<string, Map<string, Import>>, component: Set<string>, start: string): Import[] | undefined {
  const cameBy = new Map<string, Import>();
  const nodeOfEdge = new Map<Import, string>();
  let frontier = [start];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const node of frontier) {
      for (const [to, edge] of edges.get(node) ?? []) {
        if (!component.has(to) || cameBy.has(to)) continue;
        cameBy.set(to, edge);
        nodeOfEdge.set(edge, node);
        if (to === start) {
          const cycle: Import[] = [];
          for (let at: Import | undefined = edge; at !== undefined;) {
            cycle.unshift(at);
            const from: string = nodeOfEdge.get(at)!;
            at = from === start ? undefined : cameBy.get(from);
          }
          return cycle;
        }
        next.push(to);
      }
    }
    frontier = next;
  }
  return undefined;
}
