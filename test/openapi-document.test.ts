/**
 * The served OpenAPI document as the tools of its readers take it: Redocly and Spectral find
 * nothing to say; ajv in strict mode compiles every schema; every operation documents the statuses
 * and headers the server may answer with.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubernetesFormats } from '../src/kubernetes/kube-formats.js';
import { hoist } from '../src/server/openapi/schemas.js';
import { bin, type Json, operations, resolved, run, serveDocument } from './helpers/openapi-document.js';
import { ROOT } from './helpers/repos.js';
import type { TestServer } from './helpers/server.js';

let server: TestServer;
let document: Json;
let work: string;
let documentFile: string;
beforeAll(async () => ({ server, document, work, documentFile } = await serveDocument()));
afterAll(() => server.close());

describe('linters', () => {
  it('Redocly (recommended rules) reports no problem', async () => {
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const redocly = await run(process.execPath, [bin('@redocly/cli/bin/cli.js'), 'lint', documentFile, '--format=json'], env);
    const report = JSON.parse(redocly.output.slice(redocly.output.indexOf('{'), redocly.output.lastIndexOf('}') + 1)) as {
      totals: Json;
      problems: Json[];
    };
    expect(report.problems, redocly.output).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it('Spectral (spectral:oas) reports no problem', async () => {
    const results = path.join(work, 'spectral.json');
    const spectral = await run(process.execPath, [
      bin('@stoplight/spectral-cli/dist/index.js'),
      'lint',
      documentFile,
      '--ruleset',
      path.join(ROOT, '.spectral.yaml'),
      '--format',
      'json',
      '--output',
      results,
      '--fail-severity',
      'hint',
    ]);
    expect(JSON.parse(readFileSync(results, 'utf8')), spectral.output).toEqual([]);
    expect(spectral.code, spectral.output).toBe(0);
  });

  it('ajv in strict mode (JSON Schema 2020-12, as OpenAPI 3.1) compiles every schema', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    for (const [name, format] of Object.entries(kubernetesFormats)) ajv.addFormat(name, format as never);
    // The OpenAPI 3.1 dialect: its own vocabulary and specification extensions (x-…) are keywords too.
    const extensions = new Set<string>();
    JSON.stringify(document.components.schemas, (key: string, value: unknown) => {
      if (key.startsWith('x-')) extensions.add(key);
      return value;
    });
    for (const keyword of ['discriminator', 'xml', 'externalDocs', 'example', ...extensions]) ajv.addKeyword(keyword);
    const local = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"openapi#/$defs/'));
    ajv.addSchema({ $id: 'openapi', $defs: local(document.components.schemas) });
    const schemas: Array<[string, unknown]> = Object.keys(document.components.schemas).map((name) => [
      name,
      { $ref: `#/components/schemas/${name}` },
    ]);
    for (const [name, header] of Object.entries<Json>(document.components.headers)) schemas.push([`header ${name}`, header.schema]);
    for (const { template, method, operation } of operations(document)) {
      for (const parameter of operation.parameters ?? []) schemas.push([`${method} ${template} ${parameter.name}`, parameter.schema]);
      for (const [type, media] of Object.entries<Json>(operation.requestBody?.content ?? {}))
        schemas.push([`${method} ${template} ${type}`, media.schema]);
      for (const [status, response] of Object.entries<Json>(operation.responses)) {
        for (const [type, media] of Object.entries<Json>(resolved(document, response).content ?? {}))
          schemas.push([`${method} ${template} ${status} ${type}`, media.schema]);
      }
    }
    for (const [where, schema] of schemas) expect(() => ajv.compile(local(schema)), where).not.toThrow();
    expect(schemas.length).toBeGreaterThan(Object.keys(document.paths).length);
  });
});

describe('input schemas in the document', () => {
  it('say union types as anyOf, keep keyword-named properties out of properties, and say defaults in the description', () => {
    const components: Json = {};
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        scalar: { type: ['string', 'number'], anyOf: [{ minLength: 1 }, { minimum: 0 }] },
        props: { $ref: '#/definitions/Props' },
      },
      definitions: { Props: { type: 'object', properties: { $ref: { type: 'string' }, default: { type: 'string', default: 'x' } } } },
    };
    const values = hoist(schema as never, 'p.', components) as Json;
    expect(values.properties.scalar).toEqual({
      allOf: [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, { anyOf: [{ minLength: 1 }, { minimum: 0 }] }],
    });
    expect(values.properties.props).toEqual({ $ref: '#/components/schemas/p.Props' });
    // `default` here is a property's name, not the keyword; the keyword inside it becomes text.
    expect(components['p.Props']).toEqual({
      type: 'object',
      description: 'It may also hold `$ref`.',
      additionalProperties: true,
      properties: { default: { type: 'string', description: 'Default: `"x"`.' } },
    });
    const closed = hoist({ type: 'object', additionalProperties: false, properties: { $ref: { type: 'string' } } } as never, 'q.', {});
    expect(closed).toMatchObject({ properties: {}, patternProperties: { '^\\$ref$': { type: 'string' } } });
  });
});

describe('statuses and headers', () => {
  const headersOf = (response: Json) => Object.keys(resolved(document, response).headers ?? {});

  it('every operation documents the answers any request may get, and a keyed one those of the key and its budget', () => {
    for (const { template, method, operation } of operations(document)) {
      const keyed = operation.security === undefined;
      const statuses = Object.keys(operation.responses);
      const where = `${method} ${template}`;
      expect(statuses, where).toEqual(expect.arrayContaining(['200', '400', '408', '431', '500', ...(keyed ? ['401', '429'] : [])]));
      for (const [status, response] of Object.entries<Json>(operation.responses)) {
        const headers = headersOf(response);
        // Node's HTTP parser answers 408 and 431 before the application sees the request: no header of its own.
        if (status === '408' || status === '431') expect(headers, `${where} ${status}`).toEqual([]);
        else expect(headers, `${where} ${status}`).toContain('X-Request-Id');
        if (keyed && !['401', '408', '431'].includes(status))
          expect(headers, `${where} ${status}`).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy']));
      }
      if (keyed) expect(headersOf(operation.responses['401']), where).toContain('WWW-Authenticate');
      if (keyed) expect(headersOf(operation.responses['429']), where).toContain('Retry-After');
    }
  });

  it('exec and batch document JSON and YAML answers, Accept negotiation, warnings, the bundles that rendered, and each failure of a body', () => {
    const renders = [...operations(document)].filter(({ template }) => template.endsWith('/exec'));
    expect(renders.length).toBe(Object.keys(document.paths).filter((template) => template.endsWith('/exec')).length);
    for (const { template, operation } of renders) {
      expect(Object.keys(operation.responses), template).toEqual(expect.arrayContaining(['404', '405', '406', '413', '415', '422', '503']));
      expect(Object.keys(operation.responses['200'].content), template).toEqual(['application/json', 'application/yaml']);
      expect(headersOf(operation.responses['200']), template).toEqual(
        expect.arrayContaining(['Vary', 'Warning', 'X-Facetform-Release', 'X-Facetform-Bundle-Digest']),
      );
      expect(headersOf(operation.responses['503']), template).toContain('Retry-After');
      expect(headersOf(operation.responses['405']), template).toContain('Allow');
    }
    // RateLimit headers as draft-ietf-httpapi-ratelimit-headers-10 writes them.
    expect(document.components.headers.RateLimit.example).toMatch(/^"key";r=\d+;t=\d+$/);
    expect(document.components.headers['RateLimit-Policy'].example).toMatch(/^"key";q=\d+;w=\d+$/);
  });
});
