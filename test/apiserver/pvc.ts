/**
 * PersistentVolumeClaims (core/validation ValidatePersistentVolumeClaim): access modes, the storage
 * request (present, positive; Go reports it at spec.resources[storage]), volumeMode,
 * storageClassName, the selector, dataSource and dataSourceRef, volumeName and
 * volumeAttributesClassName (which 1.33 drops, its gate off).
 */
import fc from 'fast-check';
import { type KindGenerator, probe } from './case.js';
import { metadataProbes, validMetadata } from './metadata.js';
import { candidate, labelKeyCandidate } from './near-miss.js';
import { accessModes, className, classNameProbe, modesProbe, QUANTITIES, quantity, volumeModeProbe } from './storage-modes.js';
import { validString } from './strings.js';

const CLAIM = { kind: 'PersistentVolumeClaim', name: 'data-0' };
const SNAPSHOT = { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'nightly' };
const POPULATED = { apiGroup: 'hello.example.com', kind: 'Hello', name: 'hello-world' };
/** dataSource, dataSourceRef (a volume populator's too), or both the same: the API server copies one to the other. */
const dataSources = fc.oneof(
  { arbitrary: fc.constant({}), weight: 2 },
  { arbitrary: fc.constantFrom(CLAIM, SNAPSHOT).map((dataSource) => ({ dataSource })), weight: 3 },
  { arbitrary: fc.constantFrom(CLAIM, SNAPSHOT, POPULATED).map((dataSourceRef) => ({ dataSourceRef })), weight: 2 },
  { arbitrary: fc.constantFrom(CLAIM, SNAPSHOT, POPULATED).map((ref) => ({ dataSource: ref, dataSourceRef: { ...ref } })), weight: 1 },
);

const pvcSpec = fc
  .tuple(
    fc.record({
      accessModes,
      resources: quantity.map((storage) => ({ requests: { storage } })),
      storageClassName: className,
      volumeMode: fc.constantFrom(undefined, 'Filesystem', 'Block'),
      selector: fc.option(
        fc
          .dictionary(validString('qualifiedName'), validString('labelValue'), { minKeys: 1, maxKeys: 2 })
          .map((matchLabels) => ({ matchLabels })),
        { nil: undefined, freq: 5 },
      ),
      // A claim bound ahead to a volume by its name.
      volumeName: fc.option(fc.oneof(fc.constantFrom('shared-nfs', 'pv-ebs-legacy'), validString('dns1123Subdomain')), {
        nil: undefined,
        freq: 3,
      }),
      volumeAttributesClassName: fc.option(fc.oneof(fc.constantFrom('gold', 'silver', ''), validString('dns1123Subdomain')), {
        nil: undefined,
        freq: 3,
      }),
    }),
    dataSources,
  )
  .map(([spec, sources]) => ({ ...spec, ...sources }));

const validPvc = fc
  .tuple(validMetadata({ nameRule: 'dns1123Subdomain', namespaced: true }), pvcSpec)
  .map(([metadata, spec]) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata, spec }));

export const persistentVolumeClaim: KindGenerator = {
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  namespaced: true,
  valid: validPvc,
  probes: [
    ...metadataProbes({ nameRule: 'dns1123Subdomain', namespaced: true }),
    modesProbe(['accessModes']),
    probe('modes/accessModes-missing', fc.constant(null), (m) => delete m.spec.accessModes),
    probe('modes/storage', fc.constantFrom(...QUANTITIES), (m, storage) => (m.spec.resources = { requests: { storage } }), 3),
    probe(
      'modes/storage-missing',
      fc.constantFrom({}, { requests: {} }, { limits: { storage: '1Gi' } }, { requests: { cpu: '1' } }),
      (m, resources) => (m.spec.resources = resources),
      2,
    ),
    volumeModeProbe,
    classNameProbe,
    probe(
      'modes/selector',
      fc.tuple(labelKeyCandidate, candidate('labelValue')),
      (m, [key, value]) => (m.spec.selector = { matchLabels: { [key]: value } }),
      2,
    ),
    probe(
      'modes/dataSource',
      fc.constantFrom(
        { kind: 'VolumeSnapshot', name: 'x' },
        { kind: '', name: 'x' },
        { kind: 'PersistentVolumeClaim', name: '' },
        { apiGroup: 'Snapshot.Storage', kind: 'VolumeSnapshot', name: 'x' },
        { apiGroup: '', kind: 'PersistentVolumeClaim', name: 'x' },
      ),
      (m, source) => {
        delete m.spec.dataSourceRef;
        m.spec.dataSource = source;
      },
      2,
    ),
    probe('decode/wrong-type', fc.constantFrom('ReadWriteOnce', 5), (m, modes) => (m.spec.accessModes = modes), 0.5),
  ],
};
