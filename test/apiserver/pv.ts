/**
 * PersistentVolumes (core/validation ValidatePersistentVolume, volume/validation): access modes,
 * capacity (storage only, positive), exactly one volume source (csi, nfs, hostPath, local with node
 * affinity …), reclaim policy (no Recycle of a hostPath `/`), volumeMode, storageClassName and the
 * mount-options annotation of sources that take none.
 */
import fc from 'fast-check';
import { type KindGenerator, probe } from './case.js';
import { metadataProbes, validMetadata } from './metadata.js';
import { accessModes, className, classNameProbe, modesProbe, QUANTITIES, quantity, volumeModeProbe } from './storage-modes.js';
import { validString } from './strings.js';

const source = fc.oneof(
  fc.record({
    csi: fc.record({
      driver: fc.constantFrom('ebs.csi.aws.com', 'pd.csi.storage.gke.io', 'disk.csi.azure.com'),
      volumeHandle: fc.constantFrom('vol-0123456789abcdef0', 'projects/p/disks/d'),
      fsType: fc.constantFrom(undefined, 'ext4', 'xfs'),
    }),
  }),
  fc.record({
    nfs: fc.record({
      server: fc.constantFrom('nfs.example.com', '10.0.0.5'),
      path: fc.constantFrom('/exports', '/data/shared'),
      readOnly: fc.constantFrom(undefined, true),
    }),
  }),
  fc.record({
    hostPath: fc.record({
      path: fc.constantFrom('/mnt/data', '/var/lib/app'),
      type: fc.constantFrom(undefined, '', 'DirectoryOrCreate', 'Directory'),
    }),
  }),
  fc.constantFrom('/mnt/disks/ssd1', '/dev/nvme0n1').map((path) => ({
    local: { path },
    nodeAffinity: {
      required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-1'] }] }] },
    },
  })),
);
const pvSpec = fc
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

const validPv = fc
  .tuple(validMetadata({ nameRule: 'dns1123Subdomain', namespaced: false }), pvSpec)
  .map(([metadata, spec]) => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata, spec }));
const SOURCES = ['csi', 'nfs', 'hostPath', 'local', 'iscsi', 'gcePersistentDisk', 'cephfs'];

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
          for (const key of [...SOURCES, 'nodeAffinity', 'mountOptions']) delete m.spec[key];
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
        for (const key of [...SOURCES, 'nodeAffinity', 'mountOptions']) delete m.spec[key];
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
      for (const key of [...SOURCES, 'nodeAffinity', 'mountOptions']) delete m.spec[key];
      m.spec[kind] = {
        csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' },
        nfs: { server: 'nfs.example.com', path: '/exports' },
        hostPath: { path: '/mnt/data' },
      }[kind];
      (m.metadata.annotations ??= {})['volume.beta.kubernetes.io/mount-options'] = 'ro';
    }),
  ],
};
