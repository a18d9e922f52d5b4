/**
 * Valid CustomResourceDefinitions: a group with a dot, names from the kind, one to three versions
 * (exactly one stored), structural schemas with the extensions the API server knows.
 */
import fc from 'fast-check';

const GROUPS = ['example.com', 'platform.facetform.dev', 'stable.example.io', 'acme.io', 'db.internal.example.com'];
const KINDS = ['Widget', 'Database', 'CronTab', 'Gadget', 'ObjectStore', 'X'];
const VERSIONS = ['v1', 'v1beta1', 'v1alpha1', 'v2', 'v2beta3'];

const schema = fc.constantFrom(
  {
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { size: { type: 'integer', minimum: 1 }, color: { type: 'string', enum: ['red', 'blue'] } } },
      status: { type: 'object', properties: { ready: { type: 'boolean' } } },
    },
  },
  { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
  {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['image'],
        properties: { image: { type: 'string' }, port: { 'x-kubernetes-int-or-string': true }, replicas: { type: 'integer', default: 1 } },
      },
    },
  },
  {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          items: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
          },
        },
        'x-kubernetes-validations': [{ rule: 'self.items.size() <= 10', message: 'at most 10 items' }],
      },
    },
  },
);

const versions = fc
  .tuple(fc.uniqueArray(fc.constantFrom(...VERSIONS), { minLength: 1, maxLength: 3 }), fc.nat(), schema, fc.boolean(), fc.boolean())
  .map(([names, storage, openAPIV3Schema, subresources, columns]) =>
    names.map((name, i) => ({
      name,
      served: i === storage % names.length || i % 2 === 0,
      storage: i === storage % names.length,
      schema: { openAPIV3Schema },
      ...(subresources ? { subresources: { status: {} } } : {}),
      ...(columns ? { additionalPrinterColumns: [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }] } : {}),
    })),
  );

export const validCrd = fc
  .record({
    group: fc.constantFrom(...GROUPS),
    kind: fc.constantFrom(...KINDS),
    scope: fc.constantFrom('Namespaced', 'Cluster'),
    versions,
    shortNames: fc.option(fc.constantFrom(['wd'], ['db', 'dbs']), { nil: undefined }),
    categories: fc.option(fc.constant(['all']), { nil: undefined, freq: 3 }),
    conversion: fc.option(fc.constant({ strategy: 'None' }), { nil: undefined }),
    preserveUnknownFields: fc.option(fc.constant(false), { nil: undefined }),
    labels: fc.option(fc.constant({ 'app.kubernetes.io/part-of': 'platform' }), { nil: undefined }),
  })
  .map(({ group, kind, scope, versions, shortNames, categories, conversion, preserveUnknownFields, labels }) => {
    const plural = `${kind.toLowerCase()}s`;
    return {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${plural}.${group}`, ...(labels === undefined ? {} : { labels }) },
      spec: {
        group,
        names: { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase(), shortNames, categories },
        scope,
        versions,
        conversion,
        preserveUnknownFields,
      },
    };
  });
