/**
 * The console's scripts are the modules tsc writes into lib/: the server serves exactly the ones the
 * page loads, found by following their imports from the page's script tags, the shared modules of
 * src/ included, and refuses at start an import a browser could not load from it.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleModules } from '../../src/server/console-modules.js';
import { ROOT, tempDir } from '../helpers/repos.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Files under a folder, as paths relative to it. */
const filesIn = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));

describe('the console modules a browser loads', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  /** What a browser fetches: the page's module scripts, then each import, resolved as URLs resolve (a browser's rule). */
  async function loadedByBrowser(): Promise<Map<string, Response>> {
    const page = await (await fetch(`${server.url}/console`)).text();
    const scripts = [...page.matchAll(/<script type="module" src="([^"]+)"/g)].map((match) => match[1]!);
    const pending = scripts.map((src) => new URL(src, server.url + '/console').href);
    const loaded = new Map<string, Response>();
    while (pending.length > 0) {
      const url = pending.pop()!;
      if (loaded.has(url)) continue;
      const response = await fetch(url);
      loaded.set(url, response);
      const source = await response.clone().text();
      for (const match of source.matchAll(/^(?:import|export)[^'"\n]*from '([^']+)'/gm)) pending.push(new URL(match[1]!, url).href);
    }
    return loaded;
  }

  it('serves every module the page imports, with the CSP, and the shared modules of src/ the console imports', async () => {
    const loaded = await loadedByBrowser();
    expect(loaded.size).toBeGreaterThan(1);
    for (const [url, response] of loaded) {
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toBe('text/javascript; charset=utf-8');
      expect(response.headers.get('content-security-policy'), url).toContain("script-src 'self'");
      expect(await response.text(), url).not.toMatch(/from ['"]node:/);
    }
    // Each module of src/ outside src/console that a console module imports for its code (not only its types).
    const sources = filesIn(path.join(ROOT, 'src/console')).filter((file) => file.endsWith('.ts'));
    const shared = sources.flatMap((file) => {
      const source = readFileSync(path.join(ROOT, 'src/console', file), 'utf8');
      return [...source.matchAll(/^import (?!type )[^'"\n]*from '\.\.\/([^']+)'/gm)].map((match) => match[1]!);
    });
    expect(shared.length).toBeGreaterThan(0);
    const urls = [...loaded.keys()].map((url) => new URL(url).pathname);
    for (const module of shared) expect(urls, module).toContain(`/console/lib/${module}`);
  });

  it('serves no other file of lib/', async () => {
    const loaded = new Set([...(await loadedByBrowser()).keys()].map((url) => new URL(url).pathname));
    const urls = filesIn(path.join(ROOT, 'lib')).map((file) => `/console/lib/${file.split(path.sep).join('/')}`);
    const others = urls.filter((url) => !loaded.has(url));
    expect(others.length).toBeGreaterThan(0);
    for (const url of others.filter((url) => url.endsWith('.js')).slice(0, 40)) {
      expect((await fetch(server.url + url)).status, url).toBe(404);
    }
    expect((await fetch(`${server.url}/console/lib/console/console.js.map`)).status).toBe(404);
  });
});

describe('reading the console modules at start', () => {
  /** A lib/ folder with these files, and a page that loads `console/main.js`. */
  function lib(files: Record<string, string>): string {
    const dir = tempDir('facetform-console-lib-');
    for (const [file, source] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), source);
    }
    return dir;
  }
  const PAGE = '<script type="module" src="/console/lib/console/main.js"></script>';

  it('follows relative imports and re-exports out of the console folder, and nothing else', () => {
    const dir = lib({
      'console/main.js': [`import { a } from './a.js';`, `export { b } from '../util/b.js';`, `const t = 'from "./no.js"';`].join('\n'),
      'console/a.js': "import '../util/c.js';\nexport const a = 1;\n",
      'util/b.js': 'export const b = 2;\n',
      'util/c.js': '',
      'util/unused.js': '',
    });
    const found = consoleModules(dir, PAGE);
    expect('modules' in found && [...found.modules.keys()].sort()).toEqual(['console/a.js', 'console/main.js', 'util/b.js', 'util/c.js']);
  });

  it('says which module is missing when lib/ was not compiled', () => {
    expect(consoleModules(lib({ 'console/main.js': "import './gone.js';\n" }), PAGE)).toEqual({ missing: 'console/gone.js' });
  });

  it('refuses an import a browser cannot load from the server, naming the module and the import', () => {
    expect(() => consoleModules(lib({ 'console/main.js': "import { readFileSync } from 'node:fs';\n" }), PAGE)).toThrow(
      'the console module lib/console/main.js imports "node:fs": a browser loads only relative imports from this server',
    );
    const outside = lib({ 'console/main.js': "import '../../outside.js';\n" });
    expect(() => consoleModules(outside, PAGE)).toThrow('imports "../../outside.js", which is outside lib/');
  });
});
