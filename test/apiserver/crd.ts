/**
 * CustomResourceDefinitions (apiextensions validation): the name `<plural>.<group>`, the group (a
 * DNS subdomain with a dot; *.k8s.io and *.kubernetes.io need the api-approved annotation), names
 * (plural, singular, shortNames and categories DNS-1035 labels; kind and listKind mixed case, not
 * equal), scope, versions (DNS-1035 names, unique, exactly one storage version, each with a
 * structural schema) and conversion (None, or Webhook with a client config and review versions).
 */
import fc from 'fast-check';
import { type KindGenerator, type Manifest, probe } from './case.js';
import { validCrd } from './crd-valid.js';
import { metadataProbes } from './metadata.js';
import { candidate, nearMiss } from './near-miss.js';

/** Keeps the name `<plural>.<group>` after a change of either: only the changed rule is probed. */
const rename = (m: Manifest) => (m.metadata.name = `${m.spec.names.plural}.${m.spec.group}`);
const namesField = (field: string, value: fc.Arbitrary<unknown>, weight?: number) =>
  probe(
    `versions/names-${field}`,
    value,
    (m, v) => {
      m.spec.names[field] = v;
      if (field === 'plural') rename(m);
    },
    weight,
  );
const someVersion = (m: Manifest, i: number): Manifest => m.spec.versions[i % m.spec.versions.length];
const KUBE_GROUPS = ['x.k8s.io', 'storage.k8s.io', 'apps.kubernetes.io', 'k8s.io', 'example.k8s.io.acme.com', 'x-k8s.io'];
const APPROVALS = [undefined, 'https://github.com/kubernetes/enhancements/pull/1111', 'unapproved, experimental', 'unapproved', 'yes', ''];

export const customResourceDefinition: KindGenerator = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  namespaced: false,
  valid: validCrd,
  probes: [
    ...metadataProbes({ nameRule: undefined, namespaced: false }),
    probe(
      'names/crd-name',
      fc.tuple(
        fc.constantFrom('singular', 'other-group', 'plural-only', 'upper', 'trailing-dot', 'candidate'),
        candidate('dns1123Subdomain'),
      ),
      (m, [how, other]) => {
        const { plural, singular } = m.spec.names;
        m.metadata.name = {
          singular: `${singular}.${m.spec.group}`,
          'other-group': `${plural}.other.example`,
          'plural-only': plural,
          upper: `${plural}.${m.spec.group}`.toUpperCase(),
          'trailing-dot': `${plural}.${m.spec.group}.`,
          candidate: other,
        }[how];
      },
      3,
    ),
    probe('names/crd-generateName', fc.boolean(), (m, keep) => {
      m.metadata.generateName = `${m.spec.names.plural}.`;
      if (!keep) delete m.metadata.name;
    }),
    probe(
      'versions/group',
      fc.oneof(
        nearMiss('dns1123Subdomain', ['uppercase', 'trailing-dot', 'leading-dash', 'too-long', 'at-limit', 'underscore', 'empty']),
        fc.constantFrom('example', 'Example.com', 'a.b', 'example.com.', ''),
      ),
      (m, group) => {
        m.spec.group = group;
        rename(m);
      },
      3,
    ),
    probe(
      'versions/group-approval',
      fc.tuple(fc.constantFrom(...KUBE_GROUPS), fc.constantFrom(...APPROVALS)),
      (m, [group, approval]) => {
        m.spec.group = group;
        rename(m);
        if (approval !== undefined) (m.metadata.annotations ??= {})['api-approved.kubernetes.io'] = approval;
      },
      2,
    ),
    namesField('plural', fc.oneof(candidate('dns1035Label'), fc.constantFrom('Widgets', 'widget_s', '1widgets', '')), 2),
    namesField('singular', fc.oneof(candidate('dns1035Label'), fc.constantFrom('Widget', '', 'wid.get')), 2),
    namesField(
      'kind',
      fc.constantFrom('widget', 'WIDGET', '1Widget', 'Wid-get', 'Wid_get', 'Wid.get', '', 'W'.repeat(63), 'W'.repeat(64)),
      2,
    ),
    namesField('listKind', fc.constantFrom('', 'WidgetList', 'Widgets', 'Widget List'), 2),
    probe('versions/names-listKind-equals-kind', fc.constant(null), (m) => (m.spec.names.listKind = m.spec.names.kind)),
    namesField('shortNames', fc.array(candidate('dns1035Label'), { minLength: 1, maxLength: 2 }), 2),
    namesField('categories', fc.array(fc.oneof(candidate('dns1035Label'), fc.constant('all')), { minLength: 1, maxLength: 2 })),
    probe('versions/scope', fc.constantFrom('Namespaced', 'Cluster', 'namespaced', 'Global', ''), (m, scope) => (m.spec.scope = scope), 2),
    probe(
      'versions/storage',
      fc.constantFrom(0, 2),
      (m, count) => {
        if (count === 2 && m.spec.versions.length === 1)
          m.spec.versions.push({ ...m.spec.versions[0], name: m.spec.versions[0].name === 'v9' ? 'v8' : 'v9' });
        m.spec.versions.forEach((version: Manifest, j: number) => (version.storage = count === 2 ? j < 2 : false));
      },
      3,
    ),
    probe('versions/served', fc.boolean(), (m, none) =>
      m.spec.versions.forEach((version: Manifest, j: number) => (version.served = none ? false : j === 0)),
    ),
    probe(
      'versions/version-name',
      fc.tuple(fc.oneof(candidate('dns1035Label'), fc.constantFrom('V1', '1', 'v1.0', 'v1_beta', 'v1beta1', '')), fc.nat()),
      (m, [name, i]) => (someVersion(m, i).name = name),
      3,
    ),
    probe('versions/duplicate-version', fc.constant(null), (m) => m.spec.versions.push({ ...m.spec.versions[0], storage: false })),
    probe('versions/no-versions', fc.constantFrom([], undefined), (m, list) => (m.spec.versions = list)),
    probe(
      'versions/schema',
      fc.tuple(
        fc.constantFrom(
          'missing',
          'root-array',
          'no-type',
          'bad-type',
          'default-not-pruned',
          'preserve-and-default',
          'metadata-fields',
          'invalid-cel',
        ),
        fc.nat(),
      ),
      (m, [how, i]) => {
        const version = someVersion(m, i);
        const schemas: Record<string, unknown> = {
          missing: undefined,
          'root-array': { openAPIV3Schema: { type: 'array', items: { type: 'string' } } },
          'no-type': { openAPIV3Schema: { type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } } },
          'bad-type': { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'strin' } } } },
          'default-not-pruned': { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', default: { unknown: 1 } } } } },
          'preserve-and-default': {
            openAPIV3Schema: {
              type: 'object',
              properties: { spec: { type: 'object', properties: { a: { type: 'string', default: 'x' } } } },
            },
          },
          'metadata-fields': {
            openAPIV3Schema: { type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } },
          },
          'invalid-cel': {
            openAPIV3Schema: {
              type: 'object',
              properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.size(' }] } },
            },
          },
        };
        version.schema = schemas[how];
        if (how === 'preserve-and-default') m.spec.preserveUnknownFields = true;
      },
      4,
    ),
    probe(
      'versions/conversion',
      fc.constantFrom(
        'webhook-bare',
        'webhook-url',
        'webhook-http',
        'webhook-service',
        'webhook-no-review',
        'none-with-webhook',
        'none-lower',
        'empty',
      ),
      (m, how) => {
        const clientConfig = { url: 'https://conversion.example.com/convert' };
        m.spec.conversion = {
          'webhook-bare': { strategy: 'Webhook' },
          'webhook-url': { strategy: 'Webhook', webhook: { clientConfig, conversionReviewVersions: ['v1'] } },
          'webhook-http': {
            strategy: 'Webhook',
            webhook: { clientConfig: { url: 'http://conversion.example.com/convert' }, conversionReviewVersions: ['v1', 'v1beta1'] },
          },
          'webhook-service': {
            strategy: 'Webhook',
            webhook: {
              clientConfig: { service: { namespace: 'platform', name: 'conversion', path: '/convert', port: 443 } },
              conversionReviewVersions: ['v2'],
            },
          },
          'webhook-no-review': { strategy: 'Webhook', webhook: { clientConfig } },
          'none-with-webhook': { strategy: 'None', webhook: { clientConfig, conversionReviewVersions: ['v1'] } },
          'none-lower': { strategy: 'none' },
          empty: { strategy: '' },
        }[how];
      },
      3,
    ),
    probe('versions/preserveUnknownFields', fc.boolean(), (m, preserve) => (m.spec.preserveUnknownFields = preserve)),
    probe('decode/unknown-field', fc.constantFrom('validation', 'version', 'names2'), (m, field) => (m.spec[field] = {}), 0.5),
  ],
};
