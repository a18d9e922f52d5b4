/**
 * ObjectMeta as every kind has it, and the probes of its rules
 * (k8s.io/apimachinery/pkg/api/validation/objectmeta.go): the name by the kind's rule, generateName,
 * namespace, label keys and values, annotation keys and their total size (256 KiB), finalizers and
 * owner references.
 */
import fc from 'fast-check';
import { type Manifest, probe, type Probe } from './case.js';
import { candidate, labelKeyCandidate, nearMiss } from './near-miss.js';
import { type StringRule, validString } from './strings.js';

const NAMESPACES = ['default', 'shop', 'payments-prod', 'kube-public', 'team-a', 'a'];
const ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** Labels and annotations as charts and kubectl write them. */
const labels = fc.dictionary(validString('qualifiedName'), validString('labelValue'), { minKeys: 0, maxKeys: 3 });
const annotations = fc.dictionary(
  fc.oneof(validString('qualifiedName'), fc.constantFrom('kubernetes.io/description', 'prometheus.io/scrape', 'Example.COM/Owner')),
  fc.oneof(fc.constantFrom('true', '', 'owned by the platform team', '{"a":1}'), fc.string({ maxLength: 40 })),
  { minKeys: 0, maxKeys: 2 },
);

export interface MetadataOptions {
  /** The kind's name rule; undefined when the kind names itself (a CRD: `<plural>.<group>`). */
  nameRule: StringRule | undefined;
  namespaced: boolean;
}

/** Valid metadata: a name by the rule (realistic or at the limit), at times labels, annotations, a namespace. */
export function validMetadata({ nameRule, namespaced }: MetadataOptions): fc.Arbitrary<Manifest> {
  return fc
    .record({
      name: nameRule === undefined ? fc.constant(undefined) : validString(nameRule),
      namespace: namespaced ? fc.option(fc.constantFrom(...NAMESPACES), { nil: undefined }) : fc.constant(undefined),
      labels: fc.option(labels, { nil: undefined }),
      annotations: fc.option(annotations, { nil: undefined, freq: 3 }),
    })
    .map((meta) =>
      Object.fromEntries(
        Object.entries(meta).filter(([, value]) => value !== undefined && !(typeof value === 'object' && Object.keys(value).length === 0)),
      ),
    );
}

const ownerReference = fc.record({
  apiVersion: fc.constantFrom('apps/v1', 'v1', 'platform.facetform.dev/v1', 'batch/v1'),
  kind: fc.constantFrom('Deployment', 'StatefulSet', 'ConfigMap', 'WebApp', 'Job'),
  name: validString('dns1123Subdomain'),
  uid: fc.uuid(),
  controller: fc.option(fc.boolean(), { nil: undefined }),
  blockOwnerDeletion: fc.option(fc.boolean(), { nil: undefined }),
});

/** One owner reference broken at one field, or a neighbour that is fine. */
const ownerReferences = fc.oneof(
  fc.tuple(ownerReference, fc.constantFrom('apiVersion', 'kind', 'name', 'uid')).map(([ref, field]) => [{ ...ref, [field]: '' }]),
  fc.tuple(ownerReference, fc.constantFrom('apps/', '/v1', 'a/b/c', 'apps/v1/', 'v1')).map(([ref, apiVersion]) => [{ ...ref, apiVersion }]),
  fc.tuple(ownerReference, fc.constantFrom('v1', 'events.k8s.io/v1')).map(([ref, apiVersion]) => [{ ...ref, apiVersion, kind: 'Event' }]),
  fc.tuple(ownerReference, ownerReference).map(([a, b]) => [
    { ...a, controller: true },
    { ...b, controller: true },
  ]),
  fc.tuple(ownerReference, ownerReference).map(([a, b]) => [
    { ...a, controller: true },
    { ...b, controller: false },
  ]),
  fc.array(ownerReference, { minLength: 1, maxLength: 2 }).map((refs) => refs.map((ref) => JSON.parse(JSON.stringify(ref)))),
);

const finalizer = fc.oneof(
  { arbitrary: candidate('qualifiedName'), weight: 3 },
  {
    arbitrary: fc.constantFrom(
      'kubernetes.io/pv-protection',
      'kubernetes',
      'orphan',
      'foregroundDeletion',
      'example.com/cleanup',
      'Example.com/x',
    ),
    weight: 2,
  },
);

const withMeta = (manifest: Manifest) => (manifest.metadata ??= {});

/** The probes of the metadata rules, for a kind whose name follows `nameRule`. */
export function metadataProbes({ nameRule, namespaced }: MetadataOptions): Probe[] {
  const probes: Probe[] = [];
  if (nameRule !== undefined) {
    probes.push(
      probe(
        'names/name',
        fc.oneof({ arbitrary: candidate(nameRule), weight: 6 }, { arbitrary: fc.constantFrom('.', '..', 'a%2fb', 'a/b'), weight: 1 }),
        (m, name) => (withMeta(m).name = name),
        4,
      ),
      probe(
        'names/generateName',
        fc.oneof(
          candidate(nameRule),
          validString(nameRule).map((name) => `${name}-`),
        ),
        (m, generateName) => {
          delete withMeta(m).name;
          m.metadata.generateName = generateName;
        },
        2,
      ),
      probe(
        'names/name-and-generateName',
        nearMiss(nameRule, ['trailing-dash', 'too-long', 'uppercase']),
        (m, generateName) => (withMeta(m).generateName = generateName),
      ),
      probe('names/missing', fc.constant(null), (m) => delete withMeta(m).name),
    );
  }
  probes.push(
    probe(
      'names/namespace',
      namespaced ? candidate('dns1123Label') : fc.oneof(fc.constantFrom(...NAMESPACES), nearMiss('dns1123Label')),
      (m, namespace) => (withMeta(m).namespace = namespace),
      namespaced ? 2 : 1,
    ),
    probe(
      'labels/key',
      fc.tuple(labelKeyCandidate, validString('labelValue')),
      (m, [key, value]) => ((withMeta(m).labels ??= {})[key] = value),
      4,
    ),
    probe(
      'labels/value',
      fc.tuple(validString('qualifiedName'), candidate('labelValue')),
      (m, [key, value]) => ((withMeta(m).labels ??= {})[key] = value),
      4,
    ),
    probe(
      'annotations/key',
      fc.tuple(
        fc.oneof(
          labelKeyCandidate,
          nearMiss('qualifiedName', ['uppercase']),
          fc.constantFrom('Example.COM/Owner', 'EXAMPLE.com/X', 'a_b.example.com/x'),
        ),
        fc.string({ maxLength: 20 }),
      ),
      (m, [key, value]) => ((withMeta(m).annotations ??= {})[key] = value),
      3,
    ),
    // Keys and values count in bytes toward 256 KiB: around the limit, in one or two annotations.
    probe(
      'annotations/size',
      fc.tuple(fc.integer({ min: -2, max: 2 }), fc.boolean()),
      (m, [delta, split]) => {
        const total = ANNOTATION_SIZE_LIMIT + delta;
        const keys = split ? ['example.com/a', 'example.com/b'] : ['example.com/blob'];
        const share = Math.floor(total / keys.length);
        withMeta(m).annotations = Object.fromEntries(
          keys.map((key, i) => [key, 'x'.repeat((i === 0 ? total - share * (keys.length - 1) : share) - key.length)]),
        );
      },
      0.15,
    ),
    probe(
      'finalizers/name',
      fc.array(finalizer, { minLength: 1, maxLength: 3 }),
      (m, finalizers) => (withMeta(m).finalizers = finalizers),
      2,
    ),
    probe(
      'finalizers/orphan-and-foreground',
      fc.boolean(),
      (m, both) => (withMeta(m).finalizers = both ? ['orphan', 'foregroundDeletion'] : ['foregroundDeletion']),
    ),
    probe('ownerReferences/reference', ownerReferences, (m, refs) => (withMeta(m).ownerReferences = refs), 2),
  );
  return probes;
}
