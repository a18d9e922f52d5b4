/**
 * POST /apis/repos/<vendor>/exec: several resources in one call, answered as a v1 List (JSON) or a
 * stream of YAML documents, items in request order; all or nothing.
 */
import type Router from '@koa/router';
import { executeBatch, type FindCollection, findInRegistry } from '../../exec/execute-batch.js';
import { AnswerTooLarge } from '../../manifest/format.js';
import { RenderError } from '../../request/problems.js';
import { notFound } from '../problem.js';
import type { ServerState } from '../state.js';
import {
  answerManifests,
  answerTooLarge,
  formatParam,
  invalidRequest,
  strictParam,
  unknownFieldWarnings,
  unusedValuesWarnings,
} from './answer.js';
import { readRequestBody } from './request-body.js';
import { ROUTES } from './route-table.js';

const SPLIT = 'split the batch into smaller ones';

export function batchRoutes(router: Router, state: ServerState): void {
  router.post(ROUTES.batch.path, async (ctx) => {
    const body = await readRequestBody(ctx, state, ROUTES.batch.query);
    const vendor = ctx.params.vendor!;
    if (state.registry.repositories(vendor) === undefined) throw notFound('vendor', vendor, state.registry.vendors());
    const format = formatParam(ctx);
    const strict = strictParam(ctx);
    const registry = state.registry; // one registry for the whole request, even across a reload
    const find: FindCollection = (resource, pointer) => findInRegistry(registry, vendor, resource, pointer);
    let result;
    try {
      const { maxResources, maxValuesNodes, maxAnswerBytes, maxCheckMs } = state.limits;
      result = executeBatch(find, body, { strict, maxResources, maxNodes: maxValuesNodes, maxAnswerBytes, maxCheckMs });
    } catch (error) {
      if (error instanceof AnswerTooLarge) throw answerTooLarge(error, `/resources/${error.index}`, SPLIT);
      if (!(error instanceof RenderError)) throw error;
      throw invalidRequest(error);
    }
    answerManifests(ctx, result.manifests, format, {
      list: true,
      maxBytes: state.limits.maxAnswerBytes,
      pointerOf: (index) => `/resources/${index}`,
      advice: SPLIT,
    });
    // Which releases rendered, in request order: repository/apiVersion/release and digest.
    ctx.set(
      'X-Facetform-Release',
      result.bundles.map((bundle) => `${bundle.repository.name}/${bundle.repository.apiVersion}/${bundle.repository.release}`).join(', '),
    );
    ctx.set('X-Facetform-Bundle-Digest', result.bundles.map((bundle) => bundle.digest).join(', '));
    const warnings = [...unknownFieldWarnings(result.unknownMembers), ...unusedValuesWarnings(result.unusedValues)];
    if (warnings.length > 0) ctx.set('Warning', warnings);
  });
}
