/** A CRD version's schema as a KindSchema, shaped and checked like a built-in kind's. */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Crd, readCrd } from '../../src/crd/crd.js';
import { crdKindSchema } from '../../src/crd/crd-schema.js';
import { objectMetaDefinitions, objectMetaFrom } from '../../src/crd/object-meta.js';
import { SourceFile } from '../../src/repository/source-file.js';
import { generateInputSchema } from '../../src/schema/input-schema.js';
import { memberType } from '../../src/kubernetes/kind-definitions.js';
import type { KindSchema } from '../../src/kubernetes/kind-schema.js';
import { parseBody, placeholderSites } from '../../src/template/body.js';
import { errorsOf } from '../helpers/kind-schema-errors.js';

const FIXTURE = path.join(import.meta.dirname, '../fixtures/crds/databases.yaml');

let crd: Crd;
let objectMeta: ReturnType<typeof objectMetaDefinitions>;
let kind: KindSchema;
beforeAll(() => {
  crd = readCrd(new SourceFile(FIXTURE).value).crd!;
  objectMeta = objectMetaDefinitions();
  kind = crdKindSchema(crd, crd.versions[1]!, objectMeta);
}, 60_000);

const database = (spec: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  apiVersion: 'platform.example.com/v1',
  kind: 'Database',
  metadata: { name: 'orders' },
  spec: { engine: 'postgres', storage: { size: '10Gi' }, ...spec },
  ...more,
});

describe('a custom resource kind', () => {
  it('has the shape of a built-in kind: root definition named after the kind, ObjectMeta by reference', () => {
    expect(kind.kind).toBe('Database');
    expect(kind.apiVersion).toBe('platform.example.com/v1');
    expect(Object.keys(kind.definitions).sort()).toEqual([
      'Database',
      'FieldsV1',
      'ManagedFieldsEntry',
      'ObjectMeta',
      'OwnerReference',
      'Time',
    ]);
    const root = kind.definitions.Database as any;
    expect(root.required).toEqual(['apiVersion', 'kind', 'spec']);
    expect(root.properties.apiVersion).toMatchObject({ type: 'string', const: 'platform.example.com/v1' });
    expect(root.properties.kind).toMatchObject({ type: 'string', const: 'Database' });
    expect(root.properties.metadata).toMatchObject({ $ref: '#/definitions/ObjectMeta' });
    expect(root.description).toBe('A managed database cluster.');
    // Rules are CEL's business, not the JSON Schema's.
    expect(JSON.stringify(kind)).not.toContain('x-kubernetes-validations');
  });

  it('keeps enums, integer formats, bounds, defaults, descriptions and patterns', () => {
    const spec = (kind.definitions.Database as any).properties.spec;
    expect(spec.required).toEqual(['engine', 'storage']);
    expect(spec.properties.engine).toEqual({ description: 'The database engine.', type: 'string', enum: ['postgres', 'mysql'] });
    expect(spec.properties.replicas).toEqual({ type: 'integer', format: 'int32', minimum: 1, maximum: 9, default: 1 });
    expect(spec.properties.version).toEqual({ type: 'string', pattern: '^[0-9]+(\\.[0-9]+)*$' });
    expect(spec.properties.backup.properties.retentionDays).toEqual({ type: 'integer', format: 'int64' });
    expect(spec.properties.backup.properties.startAt).toEqual({ type: 'string', format: 'date-time' });
  });

  it('says nullable, int-or-string, maps, sets, list maps and preserved fields as JSON Schema', () => {
    const spec = (kind.definitions.Database as any).properties.spec;
    expect(spec.properties.storage.properties.className).toEqual({ type: ['string', 'null'] });
    expect(spec.properties.port).toEqual({
      anyOf: [{ type: 'integer', format: 'int64' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
    expect(spec.properties.parameters).toEqual({
      description: 'Engine settings, passed as they are.',
      type: 'object',
      additionalProperties: { type: 'string' },
    });
    expect(spec.properties.users).toMatchObject({
      type: 'array',
      maxItems: 16,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', required: ['name'] },
    });
    expect(spec.properties.users.items.properties.roles).toEqual({
      type: 'array',
      items: { type: 'string', enum: ['read', 'write', 'admin'] },
      'x-kubernetes-list-type': 'set',
    });
    expect(spec.properties.extensions).toEqual({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  });

  it('answers member lookups as a built-in kind does', () => {
    expect(memberType(kind, ['spec', 'engine'])).toEqual({
      schema: { description: 'The database engine.', type: 'string', enum: ['postgres', 'mysql'] },
      required: true,
    });
    expect(memberType(kind, ['spec', 'replicas'])?.required).toBe(false);
    expect(memberType(kind, ['spec', 'users', '0', 'name'])?.schema).toEqual({ type: 'string', minLength: 1 });
    expect(memberType(kind, ['spec', 'parameters', 'max_connections'])?.schema).toEqual({ type: 'string' });
    expect(memberType(kind, ['metadata', 'name'])?.schema.type).toBe('string');
    expect(memberType(kind, ['spec', 'nothing'])).toBeUndefined();
  });

  it('gives a collection its input schema unchanged', () => {
    const section = {
      apiVersion: 'platform.example.com/v1',
      kind: 'Database',
      metadata: '{{ __DB__.metadata }}',
      spec: { engine: '{{ __DB__.engine }}', replicas: '{{ __DB__.replicas }}', port: '{{ __DB__.port }}' },
    };
    const sites = placeholderSites(parseBody(section as never));
    const { schema, required } = generateInputSchema(
      { name: 'database', kind: 'Database' },
      [{ name: 'master', master: true, sites, refinements: {} }],
      kind,
    );
    expect(required.master).toEqual(['/metadata', '/spec/engine']);
    expect((schema as any).required).toEqual(['metadata', 'engine']);
    expect((schema as any).properties.engine.enum).toEqual(['postgres', 'mysql']);
    expect((schema as any).properties.replicas).toMatchObject({ type: 'integer', format: 'int32' });
    expect((schema as any).properties.metadata.allOf[0].$ref).toBe('#/definitions/ObjectMeta');
    expect(Object.keys((schema as any).definitions)).toContain('ObjectMeta');
  });

  it('accepts a valid manifest and refuses wrong enums, types, missing members and nulls with ajv', () => {
    expect(
      errorsOf(
        kind,
        database({
          replicas: 3,
          port: 'pg',
          users: [{ name: 'app', roles: ['read'] }],
          parameters: { a: 'b' },
          extensions: { any: [1] },
          storage: { size: '1Gi', className: null },
        }),
      ),
    ).toEqual([]);
    expect(errorsOf(kind, database({ engine: 'oracle', replicas: '3', storage: {} }))).toEqual([
      '/spec/engine enum',
      '/spec/replicas type',
      '/spec/storage/size required',
    ]);
    expect(errorsOf(kind, database({ replicas: 2 ** 31, port: true, parameters: { a: 1 } }))).toEqual([
      '/spec/replicas maximum',
      '/spec/replicas format',
      '/spec/port type',
      '/spec/port type',
      '/spec/port anyOf',
      '/spec/parameters/a type',
    ]);
    expect(errorsOf(kind, database({ users: [{ name: 'a', roles: ['read', 'read'] }], version: 'x' }, { kind: 'Other' }))).toEqual([
      '/kind const',
      '/spec/version pattern',
    ]);
    expect(errorsOf(kind, database({ backup: { startAt: '2024-01-01 00:00:00' } }))).toEqual(['/spec/backup/startAt format']);
    expect(errorsOf(kind, { apiVersion: 'platform.example.com/v1', kind: 'Database', metadata: { name: 'x', labels: { a: 1 } } })).toEqual([
      '/spec required',
      '/metadata/labels/a type',
    ]);
  });

  it("takes the CRD's restrictions on metadata.name into a copy of ObjectMeta", () => {
    const restricted = structuredClone(crd);
    (restricted.versions[1]!.schema as any).properties.metadata = {
      type: 'object',
      properties: { name: { type: 'string', maxLength: 10 } },
    };
    const kindSchema = crdKindSchema(restricted, restricted.versions[1]!, objectMeta);
    expect((kindSchema.definitions.Database as any).properties.metadata.$ref).toBe('#/definitions/DatabaseObjectMeta');
    expect((kindSchema.definitions.DatabaseObjectMeta as any).properties.name).toMatchObject({ type: 'string', maxLength: 10 });
    expect(errorsOf(kindSchema, database({}, { metadata: { name: 'a-very-long-name' } }))).toEqual(['/metadata/name maxLength']);
  });

  it('converts what OpenAPI 3.0 says otherwise: exclusive bounds, nullable enums, embedded resources', () => {
    const schema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            ratio: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1 },
            tier: { type: 'string', enum: ['gold', 'silver'], nullable: true },
            template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
            caseless: { type: 'string', pattern: '(?i)^gold$' },
            link: { type: 'string', format: 'uri' },
          },
        },
      },
    };
    const other: Crd = {
      name: 'times.example.com',
      group: 'example.com',
      kind: 'Time',
      plural: 'times',
      scope: 'Cluster',
      versions: [{ name: 'v1', served: true, storage: true, schema, schemaPointer: '' }],
    };
    const kindSchema = crdKindSchema(other, other.versions[0]!, objectMeta);
    // A kind named like an ObjectMeta definition keeps its name; the borrowed ones move aside.
    expect(Object.keys(kindSchema.definitions)).toContain('io.k8s.meta.Time');
    const spec = (kindSchema.definitions.Time as any).properties.spec.properties;
    expect(spec.ratio).toEqual({ type: 'number', exclusiveMinimum: 0, maximum: 1 });
    expect(spec.tier).toEqual({ type: ['string', 'null'], enum: ['gold', 'silver', null] });
    expect(spec.template).toMatchObject({
      type: 'object',
      required: ['apiVersion', 'kind'],
      properties: { metadata: { $ref: '#/definitions/io.k8s.meta.ObjectMeta' } },
      additionalProperties: {},
    });
    // A Go pattern is kept as Go reads it; formats whose Go rules ajv does not share are left to the API server.
    expect(spec.caseless).toEqual({ type: 'string', pattern: '(?i)^gold$' });
    expect(spec.link).toEqual({ type: 'string' });
    const manifest = (value: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Time', spec: value });
    expect(
      errorsOf(
        kindSchema,
        manifest({
          ratio: 0.5,
          tier: null,
          template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} },
          link: '/relative',
          caseless: 'GOLD',
        }),
      ),
    ).toEqual([]);
    expect(errorsOf(kindSchema, manifest({ ratio: 0, tier: 'bronze', template: { metadata: { name: 1 } }, caseless: 'golden' }))).toEqual([
      '/spec/ratio exclusiveMinimum',
      '/spec/tier enum',
      '/spec/template/apiVersion required',
      '/spec/template/kind required',
      '/spec/template/metadata/name type',
      '/spec/caseless pattern',
    ]);
  });

  it("borrows ObjectMeta from any built-in kind's schema", () => {
    expect(objectMetaFrom(kind)).toEqual(objectMeta);
    expect(objectMetaFrom({ kind: 'X', apiVersion: 'v1', definitions: {} })).toBeUndefined();
  });
});
