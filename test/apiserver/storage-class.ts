/**
 * StorageClasses (storage/validation ValidateStorageClass): the provisioner (a qualified name, case
 * aside), parameters (non-empty keys, at most 512, 256 KiB), reclaimPolicy (Delete or Retain),
 * volumeBindingMode and allowedTopologies.
 */
import fc from 'fast-check';
import { type KindGenerator, probe } from './case.js';
import { metadataProbes, validMetadata } from './metadata.js';
import { candidate } from './near-miss.js';

const PROVISIONERS = [
  'ebs.csi.aws.com',
  'kubernetes.io/no-provisioner',
  'pd.csi.storage.gke.io',
  'rancher.io/local-path',
  'Example.COM/Provisioner',
];
const validStorageClass = fc
  .tuple(
    validMetadata({ nameRule: 'dns1123Subdomain', namespaced: false }),
    fc.record({
      provisioner: fc.constantFrom(...PROVISIONERS),
      parameters: fc.option(
        fc.dictionary(
          fc.constantFrom('type', 'fsType', 'iops', 'csi.storage.k8s.io/fstype', 'Encrypted'),
          fc.constantFrom('gp3', 'ext4', '3000', 'true', ''),
        ),
        { nil: undefined },
      ),
      reclaimPolicy: fc.constantFrom(undefined, 'Delete', 'Retain'),
      volumeBindingMode: fc.constantFrom(undefined, 'Immediate', 'WaitForFirstConsumer'),
      allowVolumeExpansion: fc.option(fc.boolean(), { nil: undefined }),
      mountOptions: fc.option(fc.constantFrom(['discard'], ['debug', 'noatime']), { nil: undefined, freq: 4 }),
      allowedTopologies: fc.option(
        fc.constantFrom([{ matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['eu-west-1a', 'eu-west-1b'] }] }]),
        { nil: undefined, freq: 4 },
      ),
    }),
  )
  .map(([metadata, fields]) => ({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata, ...fields }));

export const storageClass: KindGenerator = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  namespaced: false,
  valid: validStorageClass,
  probes: [
    ...metadataProbes({ nameRule: 'dns1123Subdomain', namespaced: false }),
    probe(
      'class/provisioner',
      fc.oneof(candidate('qualifiedName'), fc.constantFrom('', 'EBS.CSI.AWS.COM', 'a/b/c', 'kubernetes.io/', '/x')),
      (m, provisioner) => (m.provisioner = provisioner),
      4,
    ),
    probe('class/provisioner-missing', fc.constant(null), (m) => delete m.provisioner),
    probe(
      'class/parameters',
      fc.oneof(
        fc.constantFrom({ '': 'x' }, { ' ': 'x' }, { 'a/b': '' }, {}),
        fc.integer({ min: 511, max: 513 }).map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, 'v']))),
        fc.integer({ min: -1, max: 1 }).map((delta) => ({ blob: 'x'.repeat(256 * 1024 + delta - 4) })),
      ),
      (m, parameters) => (m.parameters = parameters),
      3,
    ),
    probe(
      'class/reclaimPolicy',
      fc.constantFrom('Delete', 'Retain', 'Recycle', 'delete', ''),
      (m, policy) => (m.reclaimPolicy = policy),
      2,
    ),
    probe(
      'class/volumeBindingMode',
      fc.constantFrom('Immediate', 'WaitForFirstConsumer', 'Lazy', 'immediate', ''),
      (m, mode) => (m.volumeBindingMode = mode),
      2,
    ),
    probe(
      'class/allowedTopologies',
      fc.constantFrom(
        [{ matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: [] }] }],
        [{ matchLabelExpressions: [{ key: '', values: ['a'] }] }],
        [{ matchLabelExpressions: [{ key: 'Bad Key', values: ['a'] }] }],
        [{ matchLabelExpressions: [] }],
        [{ matchLabelExpressions: [{ key: 'zone', values: ['a'] }] }, { matchLabelExpressions: [{ key: 'zone', values: ['a'] }] }],
        [{ matchLabelExpressions: [{ key: 'zone', values: ['a', 'a'] }] }],
        [
          { matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['a', 'b'] }] },
          { matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['c'] }] },
        ],
      ),
      (m, topologies) => (m.allowedTopologies = topologies),
      2,
    ),
    probe('decode/unknown-field', fc.constantFrom('spec', 'reclaimpolicy'), (m, field) => (m[field] = {}), 0.5),
  ],
};
