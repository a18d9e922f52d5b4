/**
 * The console's ES modules, as a browser loads them: tsc compiles src/console/*.ts with the rest of
 * src/ into lib/, and the page's `<script type="module">` tags name the entry modules under
 * MODULES_URL. From those, the static imports of the compiled files lead to every module the page
 * needs, the shared ones too (src/util/json.ts, src/collection/facet.ts …): exactly those are
 * served, never the rest of lib/. A browser resolves only relative imports here (no import map:
 * the CSP allows no inline script), so a bare or `node:` import is refused at start.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CONSOLE_ASSETS } from './public-paths.js';

/** Where the page loads lib/ from: lib/console/console.js is /console/lib/console/console.js. */
export const MODULES_URL = `${CONSOLE_ASSETS}lib/`;

/** The compiled modules by their path in lib/ (`console/console.js`), or the first one missing. */
export type ConsoleModules = { modules: Map<string, string> } | { missing: string };

/** The entry modules the page's script tags name, as paths in lib/. */
export function entryModules(page: string): string[] {
  const prefix = MODULES_URL.replace(/[/.]/g, '\\$&');
  return [...page.matchAll(new RegExp(`<script\\b[^>]*\\bsrc="${prefix}([^"]+)"`, 'g'))].map((match) => match[1]!);
}

/** `import … from '…'` and `export … from '…'`, or `import '…'`, at a line's start as tsc writes them. */
const IMPORT = /^(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]|^import\s*['"]([^'"]+)['"]/gm;

/** The static imports of a compiled module. */
const SOURCE_MAP_COMMENT = /\n\/\/# sourceMappingURL=\S+\s*$/;
const importsOf = (source: string): string[] => [...source.matchAll(IMPORT)].map((match) => (match[1] ?? match[2])!);

/** Reads the entries of `page` from `libDir` and every module they import, transitively. */
export function consoleModules(libDir: string, page: string): ConsoleModules {
  const modules = new Map<string, string>();
  const pending = entryModules(page);
  if (pending.length === 0) {
    throw new Error(`the console page loads no module from ${MODULES_URL}: its <script type="module"> tags name none`);
  }
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (modules.has(file)) continue;
    const absolute = path.join(libDir, file);
    if (!existsSync(absolute)) return { missing: file };
    const source = readFileSync(absolute, 'utf8');
    // The maps (and the TypeScript they point to) are not served: a browser would only fetch them to fail.
    modules.set(file, source.replace(SOURCE_MAP_COMMENT, ''));
    for (const specifier of importsOf(source)) pending.push(resolveImport(file, specifier));
  }
  return { modules };
}

/** An import's path in lib/, as a browser resolves it from the importing module's URL. */
function resolveImport(from: string, specifier: string): string {
  const where = `the console module lib/${from} imports "${specifier}"`;
  if (!/^\.\.?\//.test(specifier)) {
    throw new Error(`${where}: a browser loads only relative imports from this server; import a module of src/ by its relative path`);
  }
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  if (resolved.startsWith('../')) throw new Error(`${where}, which is outside lib/`);
  return resolved;
}
