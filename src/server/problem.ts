/**
 * RFC 9457 problem details: every error answer of the API. A handler throws an HttpProblem; the
 * request pipeline writes it as `application/problem+json` (pipeline/errors.ts).
 */
import { type Problem as FieldProblem, REFUSALS } from '../request/problems.js';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

interface ProblemTypeDeclaration {
  status: number;
  /** The title of its answers (RFC 9457: the same at every occurrence). */
  title: string;
  /** Other titles it may have, each naming the check that refused (none but these). */
  titles?: readonly string[];
  /** Other statuses it may answer with (an answer Node's HTTP parser makes, CLIENT_ERRORS). */
  statuses?: readonly number[];
  description: string;
}

/** Problem types, documented at GET /problems/<slug>: each one's status, title and meaning, the only place they are written. */
export const PROBLEM_TYPES = {
  'bad-request': {
    status: 400,
    title: 'Bad request',
    titles: ['Malformed JSON', 'Bad Request'],
    description:
      'The request could not be read: malformed JSON, nesting too deep, a number too large to represent, a ' +
      'lone UTF-16 surrogate (no answer can carry one), or a query parameter the route does not take or ' +
      'whose value is wrong (the answer names the parameters it takes).',
  },
  unauthorized: { status: 401, title: 'Unauthorized', description: 'X-APIKEY is missing or is not a valid key.' },
  'not-found': {
    status: 404,
    title: 'Not found',
    description: 'No such route, vendor, repository, API version, release or collection; the answer names what exists.',
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    description: 'The route exists but not for this method; the Allow header lists the methods it takes.',
  },
  'not-acceptable': {
    status: 406,
    title: 'Not acceptable',
    description:
      'The Accept header allows none of the media types the route answers with; available lists them (exec and batch: application/json and application/yaml).',
  },
  'payload-too-large': { status: 413, title: 'Payload too large', description: 'The request body is larger than the limit.' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type', description: 'The request body is not application/json.' },
  'invalid-values': {
    status: 422,
    title: 'Invalid input values',
    titles: REFUSALS,
    description:
      'The request is well-formed JSON but its facets, values or globalvars are wrong; errors[] lists every problem with a JSON Pointer. ' +
      `The title says which check refused it: ${REFUSALS.join(', ')}.`,
  },
  'answer-too-large': {
    status: 422,
    title: 'Answer too large',
    description:
      'The answer would be larger than one answer may be (MAX_ANSWER_BYTES); errors names the resource at which it passed. Split the batch, or ask for less.',
  },
  'too-many-requests': {
    status: 429,
    title: 'Too many requests',
    description: 'The key has used its request budget; retry after Retry-After seconds.',
  },
  'client-error': {
    status: 431,
    title: 'Request Header Fields Too Large',
    titles: ['Request Timeout'],
    statuses: [408],
    description: 'The request could not be read as HTTP: its headers were too large (431) or it took too long to arrive (408).',
  },
  'internal-error': {
    status: 500,
    title: 'Internal server error',
    description: 'The server failed unexpectedly; quote the request id when reporting it.',
  },
  'service-unavailable': { status: 503, title: 'Service unavailable', description: 'The server is shutting down or not ready.' },
  'server-busy': {
    status: 503,
    title: 'Server busy',
    description:
      'The server holds as many request bodies and unsent answers as its memory allows (MAX_INFLIGHT_BYTES, ' +
      'one key at most half); retry after Retry-After seconds.',
  },
} as const satisfies Record<string, ProblemTypeDeclaration>;

export type ProblemType = keyof typeof PROBLEM_TYPES;

/**
 * What Node's HTTP parser refuses before the app sees a request, by its error code: answered on the
 * socket with the status's reason phrase as the title, as a client of plain HTTP expects.
 */
export const CLIENT_ERRORS = {
  HPE_HEADER_OVERFLOW: {
    type: 'client-error',
    status: 431,
    title: 'Request Header Fields Too Large',
    detail: 'the request line or headers are too large',
  },
  ERR_HTTP_REQUEST_TIMEOUT: { type: 'client-error', status: 408, title: 'Request Timeout', detail: 'the request was not received in time' },
  other: { type: 'bad-request', status: 400, title: 'Bad Request', detail: 'the request is not valid HTTP/1.1' },
} as const satisfies Record<string, { type: ProblemType; status: number; title: string; detail: string }>;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: FieldProblem[];
  [extension: string]: unknown;
}

/** A title `type` may have: its own, or one of the others it declares. */
type TitleOf<T extends ProblemType> = (typeof PROBLEM_TYPES)[T] extends { titles: readonly (infer U)[] } ? U : never;

export class HttpProblem<T extends ProblemType = ProblemType> extends Error {
  readonly status: number;
  readonly title: string;

  constructor(
    readonly problemType: T,
    readonly detail: string,
    readonly extensions: { errors?: FieldProblem[]; [name: string]: unknown } = {},
    readonly headers: Record<string, string> = {},
    title?: TitleOf<T>,
  ) {
    super(detail);
    this.name = 'HttpProblem';
    this.status = PROBLEM_TYPES[problemType].status;
    this.title = (title as string | undefined) ?? PROBLEM_TYPES[problemType].title;
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
    'server-busy',
    `the server holds as many request bodies and unsent answers as it may, and has no room for ${what}; retry after 1 s`,
    {},
    { 'Retry-After': '1' },
  );
}

/** A 404 that names what exists, e.g. the collections of a repository. */
export function notFound(what: string, name: string, known: string[]): HttpProblem {
  return new HttpProblem('not-found', `no ${what} "${name}"; ${known.length > 0 ? `known: ${known.join(', ')}` : 'there are none'}`, {
    known,
  });
}
