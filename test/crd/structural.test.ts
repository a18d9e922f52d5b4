/** The structural-schema rules of the API server, each with a pointer into the CRD file. */
import { describe, expect, it } from 'vitest';
import { structuralProblems } from '../../src/crd/structural.js';

const AT = '/spec/versions/0/schema/openAPIV3Schema';
/** A root schema with `spec` as given. */
const withSpec = (spec: Record<string, unknown>) => ({ type: 'object', properties: { spec } });
const problems = (schema: Record<string, unknown>) => structuralProblems(schema, AT).map((problem) => [problem.pointer, problem.message]);

describe('a structural schema', () => {
  it('types every node, except int-or-string and preserve-unknown-fields nodes', () => {
    expect(
      problems(
        withSpec({
          type: 'object',
          properties: {
            a: {},
            b: { 'x-kubernetes-int-or-string': true },
            c: { 'x-kubernetes-preserve-unknown-fields': true },
            d: { type: 'array', items: {} },
          },
        }),
      ),
    ).toEqual([
      [`${AT}/properties/spec/properties/a/type`, '/properties/spec/properties/a/type: must not be empty for specified object fields'],
      [
        `${AT}/properties/spec/properties/d/items/type`,
        '/properties/spec/properties/d/items/type: must not be empty for specified array items',
      ],
    ]);
    expect(problems({ properties: {} })).toEqual([[`${AT}/type`, '/type: must not be empty at the root']]);
    expect(problems({ type: 'string' })).toEqual([[`${AT}/type`, '/type: must be object at the root']]);
    expect(problems(withSpec({ type: 'array' }))).toEqual([[`${AT}/properties/spec/items`, '/properties/spec/items: must be specified']]);
    expect(problems(withSpec({ type: 'null' }))[0]![1]).toBe(
      '/properties/spec/type: type cannot be set to null, use nullable as an alternative',
    );
  });

  it('has no $ref, no additionalProperties beside properties or false, no uniqueItems', () => {
    const found = structuralProblems(
      withSpec({
        type: 'object',
        properties: {
          ref: { $ref: '#/definitions/Other' },
          both: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
          closed: { type: 'object', additionalProperties: false },
          unique: { type: 'array', uniqueItems: true, items: { type: 'string' } },
        },
      }),
      AT,
    );
    expect(found.map((problem) => problem.pointer.slice(AT.length))).toEqual([
      '/properties/spec/properties/ref/$ref',
      '/properties/spec/properties/ref/type',
      '/properties/spec/properties/both/additionalProperties',
      '/properties/spec/properties/closed/additionalProperties',
      '/properties/spec/properties/unique/uniqueItems',
    ]);
    expect(found[0]).toMatchObject({
      message: '/properties/spec/properties/ref/$ref: $ref is not supported',
      fix: expect.stringMatching(/^write the referenced schema inline/),
    });
    expect(found[2]!.message).toMatch(/additionalProperties and properties are mutual exclusive$/);
    expect(problems({ type: 'object', additionalProperties: { type: 'string' } })).toEqual([
      [`${AT}/additionalProperties`, '/additionalProperties: must not be used at the root'],
    ]);
  });

  it('restricts root metadata to name and generateName', () => {
    expect(
      problems({ type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 40 } } } } }),
    ).toEqual([]);
    expect(
      problems({
        type: 'object',
        properties: { metadata: { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } } } },
      }),
    ).toEqual([
      [
        `${AT}/properties/metadata`,
        '/properties/metadata: must not specify anything other than name and generateName, but metadata is implicitly specified (found properties.labels)',
      ],
    ]);
    expect(problems({ type: 'object', properties: { metadata: { type: 'object', default: {} }, kind: { type: 'integer' } } })).toEqual([
      [`${AT}/properties/metadata/default`, '/properties/metadata/default: must not be set in top-level metadata'],
      [`${AT}/properties/kind/type`, '/properties/kind/type: must be string'],
    ]);
  });

  it('allows the two int-or-string forms, and only value validations in junctors on declared members', () => {
    const intOrString = { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
    const wrapped = {
      'x-kubernetes-int-or-string': true,
      allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: '^[0-9]+%?$' }],
    };
    expect(problems(withSpec({ type: 'object', properties: { a: intOrString, b: wrapped } }))).toEqual([]);
    expect(
      problems(
        withSpec({
          type: 'object',
          properties: { a: { type: 'string' } },
          oneOf: [{ required: ['a'] }, { properties: { b: { type: 'string', description: 'b' } } }],
        }),
      ),
    ).toEqual([
      [
        `${AT}/properties/spec/oneOf/1/properties/b`,
        '/properties/spec/oneOf/1/properties/b: must have a counterpart properties.b outside oneOf/1: value validations may only restate typed fields',
      ],
      [`${AT}/properties/spec/oneOf/1/properties/b/type`, '/properties/spec/oneOf/1/properties/b/type: must be empty to be structural'],
      [
        `${AT}/properties/spec/oneOf/1/properties/b/description`,
        '/properties/spec/oneOf/1/properties/b/description: must be empty to be structural',
      ],
    ]);
    expect(problems(withSpec({ 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true }))).toEqual([
      [
        `${AT}/properties/spec/x-kubernetes-preserve-unknown-fields`,
        '/properties/spec/x-kubernetes-preserve-unknown-fields: must be false if x-kubernetes-int-or-string is true',
      ],
    ]);
  });

  it('checks list and map types, embedded resources and Go patterns', () => {
    expect(
      problems(
        withSpec({
          type: 'object',
          properties: {
            users: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['name'],
              items: { type: 'object', properties: { name: { type: 'string' } } },
            },
            tags: { type: 'object', 'x-kubernetes-list-type': 'set' },
            template: { type: 'object', 'x-kubernetes-embedded-resource': true },
            code: { type: 'string', pattern: '^(?=a)' },
          },
        }),
      ),
    ).toEqual([
      [
        `${AT}/properties/spec/properties/users/items/properties/name/default`,
        '/properties/spec/properties/users/items/properties/name/default: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
      ],
      [
        `${AT}/properties/spec/properties/tags/type`,
        '/properties/spec/properties/tags/type: must be array if x-kubernetes-list-type is specified',
      ],
      [
        `${AT}/properties/spec/properties/template/properties`,
        '/properties/spec/properties/template/properties: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ],
      [
        `${AT}/properties/spec/properties/code/pattern`,
        expect.stringMatching(
          /^\/properties\/spec\/properties\/code\/pattern: Invalid value: "\^\(\?=a\)": must be a valid regular expression, but isn't: error parsing regexp/,
        ),
      ],
    ]);
  });

  it('checks the form of x-kubernetes-validations; compiling them is cel-rules', () => {
    expect(
      problems(
        withSpec({
          type: 'object',
          properties: { replicas: { type: 'integer' } },
          'x-kubernetes-validations': [
            { rule: '' },
            { rule: 'self.replicas > 0\n&& true' },
            { rule: 'true', reason: 'Bad' },
            { rule: 'true', fieldPath: '.replica' },
            { rule: 'true', fieldPath: '.replicas' },
          ],
        }),
      ),
    ).toEqual([
      [`${AT}/properties/spec/x-kubernetes-validations/0/rule`, '/properties/spec/x-kubernetes-validations/0/rule: rule is not specified'],
      [
        `${AT}/properties/spec/x-kubernetes-validations/1/message`,
        '/properties/spec/x-kubernetes-validations/1/message: message must be specified if rule contains line breaks',
      ],
      [
        `${AT}/properties/spec/x-kubernetes-validations/2/reason`,
        '/properties/spec/x-kubernetes-validations/2/reason: Unsupported value: "Bad": supported values: "FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate"',
      ],
      [
        `${AT}/properties/spec/x-kubernetes-validations/3/fieldPath`,
        '/properties/spec/x-kubernetes-validations/3/fieldPath: fieldPath ".replica" must be a valid path',
      ],
    ]);
  });
});
