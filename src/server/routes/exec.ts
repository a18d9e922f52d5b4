/** POST …/collections/<name>/exec: validate the input values and render one manifest. */
import type Router from '@koa/router';
import { execute } from '../../exec/execute.js';
import { RenderError } from '../../request/problems.js';
import { jsonBody } from '../middleware/json-body.js';
import { queryParameters } from '../middleware/query-parameters.js';
import { requestLimits } from '../middleware/request-limits.js';
import type { ServerState } from '../state.js';
import { toPointer } from '../../util/json.js';
import { answerManifests, formatParam, invalidRequest, strictParam, unknownFieldWarnings } from './answer.js';
import { findCollection, setBundleHeaders } from './lookup.js';

export const COLLECTION_PATH = '/apis/repos/:vendor/:repository/:apiVersion/resources/collections/:collection';
export const EXEC_PATH = `${COLLECTION_PATH}/exec`;
/** The query parameters of an exec request (the OpenAPI document describes each). */
export const EXEC_QUERY = ['format', 'strict', 'release'] as const;

export function execRoutes(router: Router, state: ServerState): void {
  router.post(EXEC_PATH, queryParameters(EXEC_QUERY), jsonBody(state.inflight), requestLimits(state.limits), async (ctx) => {
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
    const valuesId = result.valuesId;
    answerManifests(ctx, [result.manifest], format, {
      list: false,
      maxBytes: state.limits.maxAnswerBytes,
      pointerOf: () => toPointer(['values', valuesId]),
      advice: format === 'yaml' ? 'ask for format=json, which indents nothing, or send less' : 'send less',
    });
    setBundleHeaders(ctx, found.bundle);
    if (result.unknownMembers.length > 0) ctx.set('Warning', unknownFieldWarnings(result.unknownMembers));
  });
}
