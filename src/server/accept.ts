/**
 * Content negotiation (RFC 9110 §12.5.1): exec and batch answer JSON or YAML as `Accept` asks (the
 * `format` query parameter, when given, wins: it is the one a browser link or a shell alias can
 * set); any other answer has one media type, and an `Accept` that excludes it gets a 406 rather than
 * a body the client said it cannot read. Error answers are problem+json whatever `Accept` says.
 */
import type { Context } from 'koa';
import { FORMATS, type Format, MEDIA_TYPES } from '../manifest/format.js';
import { HttpProblem } from './problem.js';

const OFFERED = FORMATS.map((format) => MEDIA_TYPES[format]);
const FORMAT_OF = new Map(FORMATS.map((format) => [MEDIA_TYPES[format], format]));

/** Accept values that need no parsing: what curl, fetch and most clients send. */
const ANYTHING = new Set(['', '*/*']);

export function notAcceptable(ctx: Context, offered: readonly string[]): HttpProblem {
  return new HttpProblem(
    'not-acceptable',
    `the Accept header (${JSON.stringify(ctx.get('Accept'))}) allows none of what ${ctx.path} answers: ${offered.join(', ')}`,
    { available: offered },
  );
}

/** The manifest format `Accept` asks for: the first offered on a tie, JSON when it says nothing. */
export function acceptedFormat(ctx: Context): Format {
  varyOnAccept(ctx);
  const accept = ctx.get('Accept');
  if (ANYTHING.has(accept) || accept === MEDIA_TYPES.json) return 'json';
  const type = ctx.accepts(OFFERED);
  if (type === false) throw notAcceptable(ctx, OFFERED);
  return FORMAT_OF.get(type as string)!;
}

/** Vary: Accept, written at once when the answer varies on nothing else yet (Koa's vary parses what is there). */
export function varyOnAccept(ctx: Context): void {
  if (ctx.res.hasHeader('Vary')) ctx.vary('Accept');
  else ctx.res.setHeader('Vary', 'Accept');
}

/** Marks an answer whose format the request chose (formatParam), which the check below leaves alone. */
export function markFormatChosen(ctx: Context): void {
  ctx.state.formatChosen = true;
}

/** Whether `Accept` allows the answer's media type; error answers and chosen formats always pass. */
export function answerIsAcceptable(ctx: Context): boolean {
  const accept = ctx.get('Accept');
  if (ANYTHING.has(accept) || ctx.status >= 400 || ctx.state.formatChosen === true) return true;
  const type = ctx.response.type;
  // A +json type (application/schema+json) is JSON to a client that asks for JSON (RFC 6839).
  return type === '' || ctx.accepts(type) !== false || (type.endsWith('+json') && ctx.accepts(MEDIA_TYPES.json) !== false);
}
