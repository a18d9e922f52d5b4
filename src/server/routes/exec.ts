/** POST …/collections/<name>/exec: validate the input values and render one manifest. */
import { execute } from '../../exec/execute.js';
import { RenderError } from '../../request/problems.js';
import { hotRoute, type Routers } from '../pipeline/hot-routes.js';
import type { ServerState } from '../state.js';
import { toPointer } from '../../util/json.js';
import { answerManifests, formatParam, invalidRequest, strictParam, unknownFieldWarnings } from './answer.js';
import { findCollection, setBundleHeaders } from './lookup.js';
import { readRequestBody } from './request-body.js';
import { ROUTES } from './route-table.js';

const ADVICE = { json: 'send less', yaml: 'ask for format=json, which indents nothing, or send less' } as const;

export function execRoutes(routers: Routers, state: ServerState): void {
  hotRoute(routers, 'post', ROUTES.exec.path, async (ctx) => {
    const body = await readRequestBody(ctx, state, ROUTES.exec.query);
    const found = findCollection(state, ctx);
    const format = formatParam(ctx);
    const strict = strictParam(ctx);

    const started = performance.now();
    let result;
    try {
      result = execute(found, body, { strict });
    } catch (error) {
      if (!(error instanceof RenderError)) throw error;
      throw invalidRequest(error);
    } finally {
      state.metrics.observeRender(found.collection.name, (performance.now() - started) / 1000);
    }
    const valuesId = result.valuesId;
    answerManifests(ctx, [result.manifest], format, {
      list: false,
      maxBytes: state.limits.maxAnswerBytes,
      pointerOf: () => toPointer(['values', valuesId]),
      advice: ADVICE[format],
    });
    setBundleHeaders(ctx, found.bundle);
    if (result.unknownMembers.length > 0) ctx.set('Warning', unknownFieldWarnings(result.unknownMembers));
  });
}
