/** GET /schemas/… in the OpenAPI document: the editor schemas (src/editor-schemas/editor-schemas.ts), by the three shapes of their paths. */
import { SCHEMAS_PREFIX } from '../routes/schemas.js';
import { batchSchemaPath, LATEST, REPOSITORY_FORMAT_SCHEMAS } from '../../editor-schemas/editor-schemas.js';
import { BUSY, KEYED_ANSWERS, NOT_FOUND, okHeaders } from './answers.js';
import { pathParameter } from './parameters.js';

type Json = Record<string, unknown>;

export function schemaPaths(ok: (description: string, keyed: boolean, mediaType: string, schema: Json) => Json): Json {
  const schema = { type: 'object', additionalProperties: true };
  const answered = (description: string): Json => {
    const answer = ok(description, true, 'application/schema+json', schema);
    (answer['200'] as { headers: Json }).headers = {
      ...(answer['200'] as { headers: Json }).headers,
      ETag: { $ref: '#/components/headers/ETag' },
    };
    return {
      ...answer,
      '304': { description: "Not modified: If-None-Match named the schema's ETag.", headers: okHeaders(true, 'ETag') },
      ...KEYED_ANSWERS,
      ...NOT_FOUND,
      ...BUSY,
    };
  };
  const enumParameter = (name: string, description: string, values: string[]): Json => ({
    ...pathParameter(name, description),
    schema: { type: 'string', enum: values },
  });
  const get = (operationId: string, summary: string, parameters: Json[]): Json => ({
    get: {
      operationId,
      tags: ['operations'],
      summary,
      description:
        'A JSON Schema for editors, with a stable `$id` (urn:facetform:schema:<path>); the same bytes as ' +
        'dist/schemas/<path>. Needs the key unless OPEN_ROUTES names schemas.',
      parameters: [
        {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'An ETag this client holds: 304 when the schema is still that.',
          schema: { type: 'string' },
        },
        ...parameters,
      ],
      responses: answered(summary + '.'),
    },
  });
  const requestFiles = (['request', 'request-file'] as const).map((kind) => `{collection}.${kind}.json`).join(' or ');
  return {
    [`${SCHEMAS_PREFIX}{file}`]: get('get-repository-format-schema', 'The schema of a repository file', [
      enumParameter('file', 'repository.json, collection.json or a section file.', Object.values(REPOSITORY_FORMAT_SCHEMAS)),
    ]),
    [`${SCHEMAS_PREFIX}{vendor}/{batchFile}`]: get(
      'get-batch-schema',
      "The schema of a vendor's batch request body, or of a BatchRequest file",
      [
        pathParameter('vendor', 'The vendor.'),
        enumParameter(
          'batchFile',
          'The body or the file.',
          (['request', 'request-file'] as const).map((kind) => batchSchemaPath('', kind).slice(1)),
        ),
      ],
    ),
    [`${SCHEMAS_PREFIX}{vendor}/{repository}/{apiVersion}/{release}/{requestFile}`]: get(
      'get-request-schema',
      'The schema of an exec request body, or of a Request file, of one collection and release',
      [
        pathParameter('vendor', 'The vendor.'),
        pathParameter('repository', 'The repository.'),
        pathParameter('apiVersion', 'The API version, e.g. v1.'),
        pathParameter('release', `A release (X.Y.Z) or \`${LATEST}\`, the one exec answers with when no release is given.`),
        { ...pathParameter('requestFile', `${requestFiles}.`), schema: { type: 'string', pattern: '^[^/]+\\.request(-file)?\\.json$' } },
      ],
    ),
  };
}
