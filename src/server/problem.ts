/**
 * RFC 9457 problem details: every error answer of the API. A handler throws an HttpProblem; the
 * request pipeline writes it as `application/problem+json` (pipeline/errors.ts).
 */
import type { Problem as FieldProblem } from '../request/problems.js';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** Problem types, documented at GET /problems/<slug>. */
export const PROBLEM_TYPES = {
  'bad-request':
    'The request could not be read: malformed JSON, nesting too deep, a number too large to represent, a ' +
    'lone UTF-16 surrogate (no answer can carry one), or a query parameter the route does not take or ' +
    'whose value is wrong (the answer names the parameters it takes).',
  unauthorized: 'X-APIKEY is missing or is not a valid key.',
  'not-found': 'No such route, vendor, repository, API version, release or collection; the answer names what exists.',
  'method-not-allowed': 'The route exists but not for this method; the Allow header lists the methods it takes.',
  'not-acceptable':
    'The Accept header allows none of the media types the route answers with; available lists them (exec and batch: application/json and application/yaml).',
  'payload-too-large': 'The request body is larger than the limit.',
  'unsupported-media-type': 'The request body is not application/json.',
  'invalid-values':
    'The request is well-formed JSON but its facets, values or globalvars are wrong; errors[] lists every problem with a JSON Pointer.',
  'too-many-requests': 'The key has used its request budget; retry after Retry-After seconds.',
  'client-error': 'The request could not be read as HTTP: its headers were too large or it took too long to arrive.',
  'internal-error': 'The server failed unexpectedly; quote the request id when reporting it.',
  'service-unavailable': 'The server is shutting down or not ready.',
  'server-busy':
    'The server holds as many request bodies and unsent answers as its memory allows (MAX_INFLIGHT_BYTES, ' +
    'one key at most half); retry after Retry-After seconds.',
  'answer-too-large':
    'The answer would be larger than one answer may be (MAX_ANSWER_BYTES); errors names the resource at which it passed. Split the batch, or ask for less.',
} as const;

export type ProblemType = keyof typeof PROBLEM_TYPES;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: FieldProblem[];
  [extension: string]: unknown;
}

export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly problemType: ProblemType,
    readonly title: string,
    readonly detail: string,
    readonly extensions: { errors?: FieldProblem[]; [name: string]: unknown } = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
  }

  body(requestId: string): ProblemBody {
    return {
      type: `/problems/${this.problemType}`,
      title: this.title,
      status: this.status,
      detail: this.detail,
      instance: `urn:request:${requestId}`,
      ...this.extensions,
    };
  }
}

/** A 503 for a request whose body or answer the server has no room for now (InflightBytes). */
export function serverBusy(what: string): HttpProblem {
  return new HttpProblem(
    503,
    'server-busy',
    'Server busy',
    `the server holds as many request bodies and unsent answers as it may, and has no room for ${what}; retry after 1 s`,
    {},
    { 'Retry-After': '1' },
  );
}

/** A 404 that names what exists, e.g. the collections of a repository. */
export function notFound(what: string, name: string, known: string[]): HttpProblem {
  return new HttpProblem(
    404,
    'not-found',
    'Not found',
    `no ${what} "${name}"; ${known.length > 0 ? `known: ${known.join(', ')}` : 'there are none'}`,
    { known },
  );
}
