/**
 * PersistentVolumes (core/validation ValidatePersistentVolume, volume/validation): access modes,
 * capacity (storage only, positive), exactly one volume source (pv-sources.ts: csi, nfs, hostPath,
 * local with node affinity, the in-tree others), reclaim policy (no Recycle of a hostPath `/`),
 * volumeMode, storageClassName, volumeAttributesClassName (with csi) and the mount-options
 * annotation of sources that take none.
 */
import fc from 'fast-check';
import { type KindGenerator, type Manifest, probe } from './case.js';
import { metadataProbes, validMetadata } from './metadata.js';
import { csiWithClass, SOURCES, source } from './pv-sources.js';
import { accessModes, className, classNameProbe, modesProbe, QUANTITIES, quantity, volumeModeProbe } from './storage-modes.js';
import { validString } from './strings.js';

const someSpec = fc
  .tuple(
    fc.record({
      accessModes,
      capacity: quantity.map((storage) => ({ storage })),
      persistentVolumeReclaimPolicy: fc.constantFrom(undefined, 'Retain', 'Delete', 'Recycle'),
      storageClassName: className,
      volumeMode: fc.constantFrom(undefined, 'Filesystem', 'Block'),
      claimRef: fc.option(fc.record({ namespace: fc.constant('default'), name: validString('dns1123Subdomain') }), {
        nil: undefined,
        freq: 3,
      }),
      mountOptions: fc.option(fc.constantFrom(['hard', 'nfsvers=4.1'], ['ro']), { nil: undefined, freq: 4 }),
    }),
    source,
  )
  .map(([spec, volume]) => ({ ...spec, ...volume, mountOptions: 'nfs' in volume || 'csi' in volume ? spec.mountOptions : undefined }));

/** Every member a volume can have at once: one source (CSI, the one that takes a VolumeAttributesClass) and all the rest. */
const fullSpec = fc
  .record({
    accessModes,
    capacity: quantity.map((storage) => ({ storage })),
    persistentVolumeReclaimPolicy: fc.constantFrom('Retain', 'Delete'),
    storageClassName: className,
    volumeMode: fc.constantFrom('Filesystem', 'Block'),
    claimRef: fc.record({ namespace: fc.constant('default'), name: validString('dns1123Subdomain') }),
    mountOptions: fc.constantFrom(['hard', 'nfsvers=4.1'], ['ro']),
    nodeAffinity: fc.constant({
      required: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['eu-west-1a'] }] }],
      },
    }),
    volume: csiWithClass,
  })
  .map(({ volume, ...spec }) => ({ ...spec, ...volume }));

const pvSpec = fc.oneof({ arbitrary: someSpec, weight: 9 }, { arbitrary: fullSpec, weight: 1 });

const validPv = fc.tuple(validMetadata({ nameRule: 'dns1123Subdomain', namespaced: false }), pvSpec).map(([metadata, spec]): Manifest => {
  // An iSCSI initiator name wants `<volume name>:<targetPortal>` of 64 characters at most.
  const { iscsi } = spec as Manifest;
  const tooLong = iscsi?.initiatorName !== undefined && `${metadata.name}:${iscsi.targetPortal}`.length > 64;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata,
    spec: tooLong ? { ...spec, iscsi: { ...iscsi, initiatorName: undefined } } : spec,
  };
});
/** What a probe that puts one source in place of another takes away: the source and what came with it. */
const WITH_SOURCE = [...SOURCES, 'nodeAffinity', 'mountOptions', 'volumeAttributesClassName'];

export const persistentVolume: KindGenerator = {
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  namespaced: false,
  valid: validPv,
  probes: [
    ...metadataProbes({ nameRule: 'dns1123Subdomain', namespaced: false }),
    modesProbe(['accessModes']),
    probe('modes/accessModes-missing', fc.constant(null), (m) => delete m.spec.accessModes),
    probe(
      'modes/capacity',
      fc.oneof(
        fc.constantFrom(...QUANTITIES).map((storage) => ({ storage })),
        fc.constantFrom({}, { storage: '1Gi', cpu: '1' }, { cpu: '1' }),
      ),
      (m, capacity) => (m.spec.capacity = capacity),
      3,
    ),
    probe('modes/capacity-missing', fc.constant(null), (m) => delete m.spec.capacity),
    volumeModeProbe,
    classNameProbe,
    probe(
      'modes/reclaimPolicy',
      fc.tuple(fc.constantFrom('Retain', 'Delete', 'Recycle', 'recycle', ''), fc.constantFrom(undefined, '/', '/mnt/..', '//')),
      (m, [policy, hostPath]) => {
        m.spec.persistentVolumeReclaimPolicy = policy;
        if (hostPath !== undefined) {
          for (const key of WITH_SOURCE) delete m.spec[key];
          m.spec.hostPath = { path: hostPath };
        }
      },
      2,
    ),
    probe(
      'modes/source',
      fc.constantFrom(
        'none',
        'two',
        'local-without-affinity',
        'csi-bad-driver',
        'csi-long-driver',
        'csi-no-handle',
        'nfs-relative',
        'hostPath-backstep',
        'hostPath-type',
        'affinity-empty',
        'iscsi',
        'iscsi-no-portal',
        'iscsi-bad-iqn',
        'iscsi-lun',
        'iscsi-long-portal',
        'iscsi-bad-initiator',
        'gce',
        'gce-no-pd',
        'cephfs-and-csi',
      ),
      (m, how) => {
        for (const key of WITH_SOURCE) delete m.spec[key];
        const csi = { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' };
        const iscsi = { targetPortal: '10.0.0.5:3260', iqn: 'iqn.2001-04.com.example:storage.disk1', lun: 0 };
        Object.assign(
          m.spec,
          {
            none: {},
            two: { csi, nfs: { server: 'nfs.example.com', path: '/exports' } },
            'local-without-affinity': { local: { path: '/mnt/disks/ssd1' } },
            'csi-bad-driver': { csi: { ...csi, driver: 'EBS_CSI' } },
            'csi-long-driver': { csi: { ...csi, driver: `${'d'.repeat(60)}.io` } },
            'csi-no-handle': { csi: { ...csi, volumeHandle: '' } },
            'nfs-relative': { nfs: { server: 'nfs.example.com', path: 'exports' } },
            'hostPath-backstep': { hostPath: { path: '/mnt/../etc' } },
            'hostPath-type': { hostPath: { path: '/mnt/data', type: 'Folder' } },
            'affinity-empty': { local: { path: '/mnt/disks/ssd1' }, nodeAffinity: { required: { nodeSelectorTerms: [] } } },
            iscsi: { iscsi: iscsi },
            'iscsi-no-portal': { iscsi: { ...iscsi, targetPortal: '' } },
            'iscsi-bad-iqn': { iscsi: { ...iscsi, iqn: 'disk1' } },
            'iscsi-lun': { iscsi: { ...iscsi, lun: 256 } },
            'iscsi-long-portal': {
              iscsi: { ...iscsi, targetPortal: `${'storage'.repeat(8)}.example.com:3260`, initiatorName: 'iqn.2001-04.com.example:client' },
            },
            'iscsi-bad-initiator': { iscsi: { ...iscsi, initiatorName: 'client' } },
            gce: { gcePersistentDisk: { pdName: 'disk-1', fsType: 'ext4' } },
            'gce-no-pd': { gcePersistentDisk: { pdName: '' } },
            'cephfs-and-csi': { csi, cephfs: { monitors: ['10.0.0.1:6789'] } },
          }[how],
        );
      },
      4,
    ),
    probe('modes/mount-options-annotation', fc.constantFrom('csi', 'nfs', 'hostPath'), (m, kind) => {
      for (const key of WITH_SOURCE) delete m.spec[key];
      m.spec[kind] = {
        csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' },
        nfs: { server: 'nfs.example.com', path: '/exports' },
        hostPath: { path: '/mnt/data' },
      }[kind];
      (m.metadata.annotations ??= {})['volume.beta.kubernetes.io/mount-options'] = 'ro';
    }),
  ],
};
