/**
 * The operations paths of the OpenAPI document: health, readiness, metrics, the document itself,
 * editor schemas (schema-paths.ts) and problem types.
 */
import { ANY_ANSWERS, BUSY, KEYED_ANSWERS, NOT_FOUND, okHeaders, problemAnswer } from './answers.js';
import { pathParameter } from './parameters.js';
import { schemaPaths } from './schema-paths.js';

type Json = Record<string, unknown>;

export function operationsPaths(): Json {
  const open = { security: [] };
  const operation = (operationId: string, summary: string, description: string, responses: Json, extra: Json = {}): Json => ({
    get: { ...extra, operationId, tags: ['operations'], summary, description, responses },
  });
  const ok = (description: string, keyed: boolean, mediaType: string, schema: Json): Json => ({
    '200': { description, headers: okHeaders(keyed), content: { [mediaType]: { schema } } },
  });
  const status = { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } };
  const readiness = {
    type: 'object',
    required: ['status', 'bundles'],
    properties: {
      status: { enum: ['ready', 'degraded'] },
      bundles: { type: 'integer', minimum: 0 },
      workers: {
        type: 'object',
        required: ['wanted', 'listening'],
        properties: { wanted: { type: 'integer', minimum: 1 }, listening: { type: 'integer', minimum: 0 } },
      },
      detail: { type: 'string' },
    },
  };
  return {
    '/healthz': operation(
      'healthz',
      'Liveness',
      'Answers while the process serves; needs no key.',
      { ...ok('Alive.', false, 'application/json', status), ...ANY_ANSWERS },
      open,
    ),
    '/readyz': operation(
      'readyz',
      'Readiness',
      'Needs no key. With WORKERS, status is degraded while fewer workers serve than configured (a ' +
        'replacement is starting or could not start; detail says why). Degraded still answers 200: the pod ' +
        'serves, and taking it out of service would only cut capacity further.',
      {
        ...ok('Ready, or degraded.', false, 'application/json', readiness),
        ...ANY_ANSWERS,
        '503': problemAnswer('/problems/service-unavailable: not ready (bundles loading) or shutting down.'),
      },
      open,
    ),
    '/metrics': operation(
      'metrics',
      'Prometheus metrics',
      'Needs the key unless OPEN_ROUTES names metrics. With WORKERS, one scrape covers the whole server: ' +
        'every worker summed, with the counts of workers that exited.',
      {
        ...ok('Metrics in the Prometheus text format.', true, 'text/plain', { type: 'string' }),
        ...KEYED_ANSWERS,
        '503': problemAnswer(
          '/problems/service-unavailable: with WORKERS, the primary did not answer in time; or /problems/server-busy, with Retry-After.',
          'Retry-After',
        ),
      },
    ),
    '/openapi.json': operation('openapi', 'This document', 'Needs the key unless OPEN_ROUTES names openapi.', {
      ...ok('OpenAPI 3.1 document.', true, 'application/json', { type: 'object', additionalProperties: true }),
      ...KEYED_ANSWERS,
      ...BUSY,
    }),
    ...schemaPaths(ok),
    '/problems/{type}': {
      get: {
        ...open,
        operationId: 'get-problem-type',
        tags: ['operations'],
        summary: 'A problem type',
        description: 'What a problem type means: the `type` of every problem answer points here. Needs no key.',
        parameters: [pathParameter('type', "The problem type, as the end of a problem's `type`.")],
        responses: {
          ...ok('The problem type.', false, 'application/json', {
            type: 'object',
            required: ['type', 'status', 'title', 'description'],
            properties: {
              type: { type: 'string' },
              status: { type: 'integer', description: 'The status of its answers.' },
              title: { type: 'string', description: 'The title of its answers.' },
              titles: {
                type: 'array',
                items: { type: 'string' },
                description: 'Other titles it may have, each naming the check that refused.',
              },
              statuses: { type: 'array', items: { type: 'integer' }, description: 'Other statuses it may answer with.' },
              description: { type: 'string' },
            },
          }),
          ...ANY_ANSWERS,
          ...NOT_FOUND,
        },
      },
    },
  };
}
