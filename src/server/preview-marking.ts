/** The marking of a preview's answers (`facetform dev`), so that nobody takes one for a release. */
import type { Middleware } from 'koa';
import { type Preview, PREVIEW_RELEASE_SUFFIX } from './preview.js';
import { PREVIEW_HEADER } from './preview-status.js';

/**
 * Marks every answer as the preview: X-Facetform-Preview, and the release in X-Facetform-Release
 * as `<declared>+dev` (each one of a batch). GET discovery answers (`/apis/repos…`) say `preview`
 * in their body too. Outside the request pipeline, so that error answers and the ones it replaces are
 * marked as well.
 */
export function previewMarking(preview: Preview): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      ctx.set(PREVIEW_HEADER, preview.note);
      // Koa answers undefined for a header that is not set, whatever its types say.
      const release = ctx.response.get('X-Facetform-Release') as string | undefined;
      if (typeof release === 'string' && release !== '') {
        ctx.set(
          'X-Facetform-Release',
          release
            .split(', ')
            .map((named) => named + PREVIEW_RELEASE_SUFFIX)
            .join(', '),
        );
      }
      const body: unknown = ctx.body;
      if (
        ctx.method === 'GET' &&
        ctx.status === 200 &&
        (ctx.path === '/apis/repos' || ctx.path.startsWith('/apis/repos/')) &&
        isObjectLiteral(body)
      ) {
        ctx.body = {
          ...body,
          preview: `${preview.note}: served by facetform dev from the files as they are now, not a release; releases are made by facetform build`,
        };
      }
    }
  };
}

/** An answer made as an object literal (not a Buffer or a stream), which can take one more member. */
const isObjectLiteral = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
