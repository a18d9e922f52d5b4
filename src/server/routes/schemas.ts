/**
 * GET /schemas/<path>: the editor schemas of the loaded bundles (src/editor-schemas/editor-schemas.ts),
 * the same bytes as the build writes to dist/schemas/. Editors fetch them without headers, so
 * OPEN_ROUTES=schemas opens them; otherwise they follow the key, as every schema does.
 */
import type Router from '@koa/router';
import { queryParameters } from '../pipeline/query-parameters.js';
import { notFound } from '../problem.js';
import type { SchemaFiles } from '../schema-files.js';
import type { ServerState } from '../state.js';
import { literalPrefix, queryOf, ROUTES } from './route-table.js';

export const SCHEMAS_PREFIX = literalPrefix(ROUTES.schemaFile.path).prefix;

/** If-None-Match (RFC 9110 §13.1.2): `*`, or a list of tags compared weakly. */
function matchesEtag(header: string, etag: string): boolean {
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** What a wrong path is told: the schemas and folders beside where it looked. */
function besides(files: SchemaFiles, path: string): string[] {
  const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  const known = new Set<string>();
  for (const file of files.paths()) if (file.startsWith(folder)) known.add(folder + file.slice(folder.length).replace(/\/.*$/, '/'));
  return known.size > 0 || folder === '' ? [...known] : besides(files, folder.slice(0, -1));
}

export function schemaRoutes(router: Router, state: ServerState): void {
  router.get(ROUTES.schemaFile.path, queryParameters(queryOf(ROUTES.schemaFile)), (ctx) => {
    const path = ctx.params.path!;
    const files = state.schemas();
    const file = files.get(path);
    if (file === undefined) throw notFound('schema', path, besides(files, path));
    ctx.etag = file.etag;
    // Judged here, not by ctx.fresh: a client's Cache-Control: no-cache (fetch sends it with If-None-Match) asks to revalidate, which this is.
    if (matchesEtag(ctx.get('If-None-Match'), file.etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/schema+json';
    ctx.body = file.text;
  });
}
