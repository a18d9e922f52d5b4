/**
 * What the OpenAPI document says every operation may answer besides its own 200: the shared
 * headers and error answers (components.headers and components.responses), and which of them
 * apply to which kind of operation. Said once here, referenced everywhere.
 */
import { BODY_LIMIT_BYTES, MAX_NESTING } from '../pipeline/json-body.js';
import { API_KEY_CHALLENGE, API_KEY_HEADER } from '../pipeline/api-key.js';

type Json = Record<string, unknown>;

const string = { type: 'string' };
const header = (description: string, schema: Json = string, example?: string | number): Json => ({
  description,
  schema,
  ...(example === undefined ? {} : { example }),
});

export const HEADERS: Record<string, Json> = {
  'X-Request-Id': header(
    "The id of this request in the server log: the caller's own X-Request-Id when it is 1 to 128 of `A-Z a-z 0-9 . _ : -`, a new UUID otherwise. Problem answers quote it in `instance`.",
  ),
  'X-Content-Type-Options': header('Always `nosniff`.', { type: 'string', const: 'nosniff' }),
  'Cache-Control': header('`no-store` on every route that needs the key: its answers depend on the key.', string, 'no-store'),
  RateLimit: header(
    "On every answer to a keyed request: what is left of the key's budget (draft-ietf-httpapi-ratelimit-headers): `r` requests remain, and the bucket is full again in `t` seconds.",
    string,
    '"key";r=99;t=1',
  ),
  'RateLimit-Policy': header(
    "On every answer to a keyed request: the key's budget, `q` requests per window of `w` seconds (RATE_LIMIT).",
    string,
    '"key";q=100;w=1',
  ),
  'Retry-After': header('Seconds to wait before trying again.', { type: 'integer', minimum: 0 }, 1),
  'WWW-Authenticate': header(
    `How to authenticate: an API key in the ${API_KEY_HEADER} header, or as a Bearer token.`,
    string,
    API_KEY_CHALLENGE,
  ),
  Allow: header('The methods the path takes.', string, 'POST'),
  ETag: header('The version of the answer, for If-None-Match.', string, '"5f1c0b6d2a9e4f7e8c3b1a0d9e8f7a6b"'),
  Accept: header('The media type the body must have.', string, 'application/json'),
  Vary: header(
    '`Accept`: the media type of the answer follows the Accept header unless the `format` query parameter names one.',
    string,
    'Accept',
  ),
  'X-Facetform-Release': header(
    'The release of the bundle that answered; for a batch, `repository/apiVersion/release` of every bundle that rendered, comma-separated, in request order.',
    string,
    '1.1.0',
  ),
  'X-Facetform-Bundle-Digest': header(
    'The sha256 digest of that bundle; for a batch, their digests, comma-separated, in the same order.',
    string,
    'sha256:0d5c…',
  ),
  Warning: header(
    'One `299 - "<text>"` per input member the schema does not know (and, for a batch, per values entry ' +
      'no resource reads), the text an RFC 9110 quoted-string; at most 20, then one that counts the rest.',
    string,
    '299 - "unknown field \\"/values/web/spec/colour\\""',
  ),
};

const ref = (name: string): Json => ({ $ref: `#/components/headers/${name}` });
const refs = (...names: string[]): Json => Object.fromEntries(names.map((name) => [name, ref(name)]));

/** The headers the application puts on every answer it makes: RateLimit only once a key is known. */
const APP_HEADERS = ['X-Request-Id', 'X-Content-Type-Options', 'Cache-Control'];
const KEYED_HEADERS = [...APP_HEADERS, 'RateLimit', 'RateLimit-Policy'];

/** The headers of a 200 answer: `keyed` for a route that needs the key, plus `extra`. */
export const okHeaders = (keyed: boolean, ...extra: string[]): Json => refs(...(keyed ? KEYED_HEADERS : APP_HEADERS), ...extra);

const PROBLEM_CONTENT = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

const problem = (description: string, headers: string[] = KEYED_HEADERS): Json => ({
  description,
  headers: refs(...headers),
  content: PROBLEM_CONTENT,
});

/** A problem answer of one operation, with the headers of a keyed route and `extra`. */
export const problemAnswer = (description: string, ...extra: string[]): Json => problem(description, [...KEYED_HEADERS, ...extra]);

export function sharedResponses(limits: { maxInflightBytes: number }, texts: { invalidValues: string }): Record<string, Json> {
  return {
    BadRequest: problem(
      `/problems/bad-request: malformed JSON, nesting deeper than ${MAX_NESTING} ` +
        `levels, a number too large to represent, a lone UTF-16 surrogate, ` +
        `or a query parameter the route does not take (\`known\` lists ` +
        `those it takes) or with a wrong value; errors names the JSON ` +
        `Pointer when there is one. A request that is not HTTP/1.1 gets ` +
        `it too, without any header but Content-Type.`,
    ),
    Unauthorized: problem(
      `/problems/unauthorized: ${API_KEY_HEADER} (or Authorization: Bearer) is missing or not valid (both answer alike).`,
      [...APP_HEADERS, 'WWW-Authenticate'],
    ),
    NotFound: problem('/problems/not-found: no such vendor, repository, API version, release or collection; `known` names what exists.'),
    MethodNotAllowed: problem('/problems/method-not-allowed: the path takes only the methods Allow lists.', [...KEYED_HEADERS, 'Allow']),
    NotAcceptable: problem(
      '/problems/not-acceptable: the Accept header allows none of the media types the route answers with ' +
        '(exec and batch: application/json and application/yaml, unless the `format` query parameter names ' +
        'one); `available` lists them.',
      [...KEYED_HEADERS, 'Vary'],
    ),
    RequestTimeout: problem(
      '/problems/client-error: the request did not arrive in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection closes.',
      [],
    ),
    PayloadTooLarge: problem(`/problems/payload-too-large: the body is over ${BODY_LIMIT_BYTES} bytes.`),
    UnsupportedMediaType: problem(
      '/problems/unsupported-media-type: the body is not uncompressed application/json in UTF-8; Accept says what to send.',
      [...KEYED_HEADERS, 'Accept'],
    ),
    InvalidValues: problem(texts.invalidValues),
    TooManyRequests: problem('/problems/too-many-requests: the key has used its budget (RATE_LIMIT); retry after Retry-After seconds.', [
      ...KEYED_HEADERS,
      'Retry-After',
    ]),
    HeadersTooLarge: problem('/problems/client-error: the request line or headers are too large; the connection closes.', []),
    InternalError: problem(
      '/problems/internal-error: the server failed unexpectedly; quote the request id (X-Request-Id, `instance`) when reporting it.',
    ),
    ServerBusy: problem(
      `/problems/server-busy: the bodies and unsent answers of all callers ` +
        `already take what the server may hold (${limits.maxInflightBytes} ` +
        `bytes, one key at most half). Retry after Retry-After seconds.`,
      [...KEYED_HEADERS, 'Retry-After'],
    ),
  };
}

const answers = (entries: Record<string, string>): Json =>
  Object.fromEntries(Object.entries(entries).map(([status, name]) => [status, { $ref: `#/components/responses/${name}` }]));

/** Any request may get these: Node's HTTP parser answers 408 and 431 before the app sees the request. */
export const ANY_ANSWERS = answers({
  '400': 'BadRequest',
  '406': 'NotAcceptable',
  '408': 'RequestTimeout',
  '431': 'HeadersTooLarge',
  '500': 'InternalError',
});
/** A route that needs the key. */
export const KEYED_ANSWERS = { ...ANY_ANSWERS, ...answers({ '401': 'Unauthorized', '429': 'TooManyRequests' }) };
export const NOT_FOUND = answers({ '404': 'NotFound' });
/** A route whose answer is text or bytes: it counts against the in-flight bytes (MAX_INFLIGHT_BYTES). */
export const BUSY = answers({ '503': 'ServerBusy' });
/** What exec and batch answer besides KEYED_ANSWERS: a body, its values, the media type asked for, or an answer over a limit. */
export const RENDER_ANSWERS = {
  ...KEYED_ANSWERS,
  ...NOT_FOUND,
  ...BUSY,
  ...answers({ '405': 'MethodNotAllowed', '413': 'PayloadTooLarge', '415': 'UnsupportedMediaType', '422': 'InvalidValues' }),
};
