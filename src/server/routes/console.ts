/**
 * The console: a static page at / and /console that explores collections and renders manifests
 * through the API, with the key the user enters. Files are read once at start and served from
 * memory; nothing comes from elsewhere (CSP 'self').
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { PROJECT_ROOT } from '../bundles.js';

const ASSETS = path.join(PROJECT_ROOT, 'src/console');
const FILES = {
  'index.html': 'text/html; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
} as const;
const POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const CONSOLE_PATHS = ['/', '/console', '/console/console.js', '/console/console.css'];

export function consoleRoutes(router: Router): void {
  const assets = Object.fromEntries(Object.keys(FILES).map((name) => [name, readFileSync(path.join(ASSETS, name), 'utf8')]));
  const serve = (name: keyof typeof FILES): Middleware => (ctx) => {
    ctx.set('Content-Type', FILES[name]);
    ctx.set('Content-Security-Policy', POLICY);
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = assets[name];
  };
  router.get('/', serve('index.html'));
  router.get('/console', serve('index.html'));
  router.get('/console/console.js', serve('console.js'));
  router.get('/console/console.css', serve('console.css'));
}
