/** POST …/collections/<name>/exec: validate the input values and render one manifest. */
import type Router from '@koa/router';
import { execute } from '../../exec/execute.js';
import { formatManifest } from '../../manifest/format.js';
import { RenderError } from '../../render/render-error.js';
import { jsonBody } from '../middleware/json-body.js';
import { requestLimits } from '../middleware/request-limits.js';
import type { ServerState } from '../state.js';
import { CONTENT_TYPES, formatParam, invalidRequest, strictParam, unknownFieldWarnings } from './answer.js';
import { findCollection, setBundleHeaders } from './lookup.js';

export const COLLECTION_PATH = '/apis/repos/:vendor/:repository/:apiVersion/resources/collections/:collection';
export const EXEC_PATH = `${COLLECTION_PATH}/exec`;

export function execRoutes(router: Router, state: ServerState): void {
  router.post(EXEC_PATH, jsonBody(), requestLimits(state.limits), async (ctx) => {
    const found = findCollection(state, ctx);
    const format = formatParam(ctx);
    const strict = strictParam(ctx);

    const started = process.hrtime.bigint();
    let result;
    try {
      result = execute(found, ctx.state.body, { strict });
    } catch (error) {
      if (!(error instanceof RenderError)) throw error;
      throw invalidRequest(error);
    } finally {
      state.metrics.observeRender(found.collection.name, Number(process.hrtime.bigint() - started) / 1e9);
    }
    setBundleHeaders(ctx, found.bundle);
    if (result.unknownMembers.length > 0) ctx.set('Warning', unknownFieldWarnings(result.unknownMembers));
    // The full Content-Type, so that Koa need not look the media type up for every answer.
    ctx.set('Content-Type', CONTENT_TYPES[format]);
    ctx.body = formatManifest(result.manifest, format);
  });
}
