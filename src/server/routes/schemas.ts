/**
 * GET /schemas/<path>: the editor schemas of the loaded bundles (src/schema/editor-schemas.ts), the
 * same bytes as the build writes to dist/schemas/. Editors fetch them without headers, so
 * OPEN_ROUTES=schemas opens them; otherwise they follow the key, as every schema does.
 */
import type Router from '@koa/router';
import type { Bundle } from '../../bundle/bundle.js';
import { sha256 } from '../../bundle/bundle.js';
import { editorSchemaFiles } from '../../schema/editor-schemas.js';
import { queryParameters } from '../middleware/query-parameters.js';
import { notFound } from '../problem.js';
import type { ServerState } from '../state.js';

export const SCHEMAS_PREFIX = '/schemas/';

export interface SchemaFile {
  text: string;
  etag: string;
}

export function schemaFilesOf(bundles: readonly Bundle[]): ReadonlyMap<string, SchemaFile> {
  return new Map([...editorSchemaFiles(bundles)].map(([path, text]) => [path, { text, etag: `"${sha256(text).slice('sha256:'.length, 'sha256:'.length + 32)}"` }]));
}

/** If-None-Match (RFC 9110 §13.1.2): `*`, or a list of tags compared weakly. */
function matchesEtag(header: string, etag: string): boolean {
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** What a wrong path is told: the schemas and folders beside where it looked. */
function besides(files: ReadonlyMap<string, SchemaFile>, path: string): string[] {
  const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  const known = new Set<string>();
  for (const file of files.keys()) if (file.startsWith(folder)) known.add(folder + file.slice(folder.length).replace(/\/.*$/, '/'));
  return known.size > 0 || folder === '' ? [...known] : besides(files, folder.slice(0, -1));
}

export function schemaRoutes(router: Router, state: ServerState): void {
  router.get(`${SCHEMAS_PREFIX}*path`, queryParameters([]), (ctx) => {
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
