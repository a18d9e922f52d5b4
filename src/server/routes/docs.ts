/** The API's own description: the OpenAPI document and the problem types its errors point to. */
import type Router from '@koa/router';
import { notFound, PROBLEM_TYPES, type ProblemType } from '../problem.js';
import type { ServerState } from '../state.js';
import { ROUTES } from './route-table.js';

export function docsRoutes(router: Router, state: ServerState): void {
  router.get(ROUTES.openapi.path, (ctx) => {
    ctx.type = 'application/json';
    ctx.body = state.openapi();
  });

  router.get(ROUTES.problemType.path, (ctx) => {
    const type = ctx.params.type as ProblemType;
    if (!Object.hasOwn(PROBLEM_TYPES, type)) throw notFound('problem type', type, Object.keys(PROBLEM_TYPES));
    ctx.body = { type: `/problems/${type}`, ...PROBLEM_TYPES[type] };
  });
}
