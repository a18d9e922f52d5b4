/**
 * PersistentVolumeClaims (core/validation ValidatePersistentVolumeClaim): access modes, the storage
 * request (present, positive; Go reports it at spec.resources[storage]), volumeMode,
 * storageClassName, the selector and dataSource.
 */
import fc from 'fast-check';
import { type KindGenerator, probe } from './case.js';
import { metadataProbes, validMetadata } from './metadata.js';
import { candidate, labelKeyCandidate } from './near-miss.js';
import { accessModes, className, classNameProbe, modesProbe, QUANTITIES, quantity, volumeModeProbe } from './storage-modes.js';
import { validString } from './strings.js';

const pvcSpec = fc.record({
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
  dataSource: fc.option(
    fc.constantFrom(
      { kind: 'PersistentVolumeClaim', name: 'data-0' },
      { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'nightly' },
    ),
    { nil: undefined, freq: 5 },
  ),
});

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
      (m, source) => (m.spec.dataSource = source),
      2,
    ),
    probe('decode/wrong-type', fc.constantFrom('ReadWriteOnce', 5), (m, modes) => (m.spec.accessModes = modes), 0.5),
  ],
};
