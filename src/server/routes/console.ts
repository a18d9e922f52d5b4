/**
 * The console: a static page at / and /console that explores collections and renders manifests
 * through the API, with the key the user enters. Files are read once at start and served from
 * memory; nothing comes from elsewhere (CSP 'self'). Every .js and .css file of src/console is
 * served as /console/<file>, so the page may be split into ES modules that import each other.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { PROJECT_ROOT } from '../bundles.js';
import { CONSOLE_ASSETS, CONSOLE_PATHS } from '../public-paths.js';

const ASSETS = path.join(PROJECT_ROOT, 'src/console');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
const POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function consoleRoutes(router: Router): void {
  const serve = (name: string): Middleware => {
    const body = readFileSync(path.join(ASSETS, name), 'utf8');
    const type = TYPES[path.extname(name)]!;
    return (ctx) => {
      ctx.set('Content-Type', type);
      ctx.set('Content-Security-Policy', POLICY);
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = body;
    };
  };
  const page = serve('index.html');
  for (const pagePath of CONSOLE_PATHS) router.get(pagePath, page);
  const assets = readdirSync(ASSETS, { withFileTypes: true }).filter((entry) => entry.isFile() && /\.(js|css)$/.test(entry.name));
  for (const { name } of assets.sort((a, b) => (a.name < b.name ? -1 : 1))) router.get(`${CONSOLE_ASSETS}${name}`, serve(name));
}
