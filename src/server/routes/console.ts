/**
 * The console: a static page at / and /console that explores collections and renders manifests
 * through the API, with the key the user enters. Files are read once at start and served from
 * memory; nothing comes from elsewhere (CSP 'self'). The page and its CSS are src/console's
 * index.html and .css files, served as /console/<file>; its scripts are the modules tsc compiles
 * into lib/ (console-modules.ts says which), served under /console/lib/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { PROJECT_ROOT } from '../../util/project-root.js';
import { consoleModules, MODULES_URL } from '../console-modules.js';
import { CONSOLE_ASSETS, CONSOLE_PATHS } from '../public-paths.js';

const ASSETS = path.join(PROJECT_ROOT, 'src/console');
const LIB = path.join(PROJECT_ROOT, 'lib');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};
const POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const serve = (body: string, extension: string, status = 200): Middleware => {
  const type = TYPES[extension]!;
  return (ctx) => {
    ctx.status = status;
    ctx.set('Content-Type', type);
    ctx.set('Content-Security-Policy', POLICY);
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = body;
  };
};

export function consoleRoutes(router: Router): void {
  const html = readFileSync(path.join(ASSETS, 'index.html'), 'utf8');
  const compiled = consoleModules(LIB, html);
  // Only a checkout whose TypeScript was never compiled lacks them (the server then runs from src/, as in tests).
  const notCompiled = (missing: string) =>
    `The console is not compiled: lib/${missing} is missing. ` +
    'Run `npm run compile` (tsc writes lib/ from src/) and start the server again.\n';
  const page = 'missing' in compiled ? serve(notCompiled(compiled.missing), '.txt', 503) : serve(html, '.html');
  for (const pagePath of CONSOLE_PATHS) router.get(pagePath, page);
  const styles = readdirSync(ASSETS).filter((name) => name.endsWith('.css'));
  for (const name of styles.sort()) router.get(`${CONSOLE_ASSETS}${name}`, serve(readFileSync(path.join(ASSETS, name), 'utf8'), '.css'));
  if ('missing' in compiled) return;
  const modules = [...compiled.modules].sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [file, source] of modules) router.get(MODULES_URL + file, serve(source, '.js'));
}
