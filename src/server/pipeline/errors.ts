/**
 * Every error answer is problem+json (RFC 9457). Known problems keep their status; errors raised by
 * libraries with an HTTP status (body too large, …) become the matching problem; anything else is
 * a 500 whose body says only the request id, while the log gets the stack. An answer the routes
 * left without a body, or whose media type Accept excludes, becomes its problem here too.
 */
import type { Context } from 'koa';
import { answerIsAcceptable, notAcceptable, varyOnAccept } from '../accept.js';
import { HttpProblem, PROBLEM_MEDIA_TYPE } from '../problem.js';
import type { ServerState } from '../state.js';

function problemFromLibrary(error: { status?: number; type?: string; message?: string; expose?: boolean }): HttpProblem | undefined {
  if (error.status === 413 || error.type === 'entity.too.large')
    return new HttpProblem('payload-too-large', 'the request body is larger than the limit of 1 MiB');
  if (error.type === 'request.aborted') return new HttpProblem('bad-request', 'the request body was not received completely');
  if (error.status === 400 && error.expose) return new HttpProblem('bad-request', error.message ?? 'the request could not be read');
  return undefined;
}

/** Answers with a problem+json body. */
export function sendProblem(ctx: Context, problem: HttpProblem): void {
  ctx.status = problem.status;
  for (const [name, value] of Object.entries(problem.headers)) ctx.set(name, value);
  ctx.type = PROBLEM_MEDIA_TYPE;
  ctx.body = JSON.stringify(problem.body(ctx.state.requestId));
}

/** Answers an error thrown while handling the request. */
export function answerError(state: ServerState, ctx: Context, error: unknown): void {
  const problem = error instanceof HttpProblem ? error : problemFromLibrary(error as never);
  if (problem !== undefined) {
    sendProblem(ctx, problem);
    return;
  }
  state.logger.error({ err: error, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'unexpected error');
  sendProblem(
    ctx,
    new HttpProblem('internal-error', `the server failed unexpectedly; quote request id ${ctx.state.requestId} when reporting it`),
  );
}

/** Turns an answer that cannot stand as it is into its problem: 406 for an excluded media type, 404 and 405 without a body. */
export function answerProblemsLeft(ctx: Context): void {
  // An answer whose media type Accept excludes: exec and batch chose theirs from Accept already.
  if (!answerIsAcceptable(ctx)) {
    varyOnAccept(ctx);
    sendProblem(ctx, notAcceptable(ctx, [ctx.response.type]));
    return;
  }
  // Answers the router left without a body: no route (404) or a method the route does not take (405).
  if (ctx.body !== undefined && ctx.body !== null) return;
  if (ctx.status === 404) {
    sendProblem(ctx, new HttpProblem('not-found', `no route for ${ctx.method} ${ctx.path}; the API is described at GET /openapi.json`));
  } else if (ctx.status === 405) {
    sendProblem(ctx, new HttpProblem('method-not-allowed', `${ctx.path} takes ${String(ctx.response.get('Allow'))}, not ${ctx.method}`));
  }
}
