/** The settings that bound a request, an answer and a connection (setting.ts says what a declaration is). */
import { type Setting, wholeNumber } from './setting.js';

const MiB = 1024 * 1024;
const milliseconds = wholeNumber(100, 600_000);

export const LIMIT_SETTINGS = {
  MAX_VALUES_ENTRIES: {
    name: 'MAX_VALUES_ENTRIES',
    default: '100',
    description: 'entries of `values` in one request',
    ...wholeNumber(1, 100_000),
  },
  MAX_STRING_LENGTH: {
    name: 'MAX_STRING_LENGTH',
    default: '65536',
    description: 'characters of any one string or member name in a request body',
    ...wholeNumber(16, 1024 * 1024),
  },
  MAX_ITEMS: {
    name: 'MAX_ITEMS',
    default: '1000',
    description:
      'items of any one array, or members of any one object, in a request body: input values and facet lists alike (`values` and `resources` have their own limits). Bounds the work of reporting every problem',
    ...wholeNumber(16, 100_000),
  },
  MAX_VALUES_NODES: {
    name: 'MAX_VALUES_NODES',
    default: '25000',
    description:
      'JSON values (objects, arrays, strings, numbers, booleans, nulls) under `values` in one request, each counting one more per 256 characters of its JSON Pointer; in a batch, each resource counts the values entry it reads. Every value may be a problem, and every problem is found before any is reported, so this bounds what one request costs; 1 MiB of a CustomResourceDefinition schema with descriptions is about 10,000',
    ...wholeNumber(100, 10_000_000),
  },
  MAX_RESOURCES: { name: 'MAX_RESOURCES', default: '50', description: 'resources in one batch request', ...wholeNumber(1, 10_000) },
  MAX_CHECK_MS: {
    name: 'MAX_CHECK_MS',
    default: '5000',
    description:
      "milliseconds the checks of one batch request may take in all. Each check is linear in what the request brings, but a batch multiplies a values entry by the resources that read it; the resource not reached in time is refused (422 `Request over limits` at `/resources/N`: split the batch there). Holds the event loop, and so `/healthz`, well under the liveness probe's 30 s",
    ...wholeNumber(100, 600_000),
  },
  MAX_ANSWER_BYTES: {
    name: 'MAX_ANSWER_BYTES',
    default: String(4 * MiB),
    shownDefault: '`4194304` (4 MiB)',
    description:
      'bytes of one answer. A batch whose resources read more bytes of values than that in all is refused before anything is rendered; any answer is measured as it is written, manifest by manifest, and refused as soon as it passes (YAML indentation can make a small body a large answer): 422 `answer-too-large`. At most half of `MAX_INFLIGHT_BYTES`',
    ...wholeNumber(64 * 1024, 1024 * MiB),
  },
  MAX_INFLIGHT_BYTES: {
    name: 'MAX_INFLIGHT_BYTES',
    default: String(64 * MiB),
    shownDefault: '`67108864` (64 MiB)',
    description:
      'bytes of request bodies being read and answers not yet taken by their clients, in all, in one process; one key may hold at most half. Past it: 503 `server-busy` with `Retry-After: 1`',
    ...wholeNumber(MiB, 64 * 1024 * MiB),
  },
} satisfies Record<string, Setting<unknown>>;

export const TIMEOUT_SETTINGS = {
  HEADERS_TIMEOUT_MS: {
    name: 'HEADERS_TIMEOUT_MS',
    default: '10000',
    description: 'time a client has to send the request headers (then 408); at most `REQUEST_TIMEOUT_MS`',
    ...milliseconds,
  },
  REQUEST_TIMEOUT_MS: {
    name: 'REQUEST_TIMEOUT_MS',
    default: '30000',
    description: 'time a client has to send the whole request',
    ...milliseconds,
  },
  KEEP_ALIVE_TIMEOUT_MS: {
    name: 'KEEP_ALIVE_TIMEOUT_MS',
    default: '5000',
    description: 'how long an idle keep-alive connection stays open',
    ...milliseconds,
  },
  STALL_TIMEOUT_MS: {
    name: 'STALL_TIMEOUT_MS',
    default: '10000',
    description:
      'how long a connection may stall, no byte arriving and none taken, before it is closed: a client that stops sending its body or reading its answer frees what it held',
    ...milliseconds,
  },
} satisfies Record<string, Setting<unknown>>;
