/**
 * A PersistentVolume's volume sources, valid ones (core/validation ValidatePersistentVolumeSpec and
 * the validate…VolumeSource of each): exactly one per volume, each about as likely as the others.
 * Values as authors write them (repos/config-and-storage-resources/persistent-volume/examples).
 */
import fc from 'fast-check';

const fsType = fc.constantFrom(undefined, 'ext4', 'xfs');
const readOnly = fc.constantFrom(undefined, false, true);
const secret = (name: string) => fc.constantFrom(undefined, { name, namespace: 'default' });
const cephMonitors = fc.constantFrom(['10.16.154.78:6789'], ['10.16.154.78:6789', '10.16.154.82:6789']);
const uuid = fc.constantFrom('3e1a6b9d-6d5c-4a5e-9a5d-3f2c1b0a9e8d', 'bd82f7e2-1ece-4c01-a505-4acf60b07f4a');
/** Names the validation does not read: realistic ones. */
const volumeName = fc.constantFrom('vol-0', 'pxvol', 'data-01', 'testVolume');

/** One source a member each: its JSON name and the spec members it brings (local brings its node affinity). */
const ARBITRARIES: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  csi: fc.record({
    csi: fc.record({
      driver: fc.constantFrom('ebs.csi.aws.com', 'pd.csi.storage.gke.io', 'disk.csi.azure.com'),
      volumeHandle: fc.constantFrom('vol-0123456789abcdef0', 'projects/p/disks/d'),
      fsType: fc.constantFrom(undefined, 'ext4', 'xfs'),
    }),
    // A CSI volume may name its VolumeAttributesClass (the only source that may): mostly does here, that
    // ~200 volumes have one.
    volumeAttributesClassName: fc.option(fc.constantFrom('gold', 'silver', 'io2-provisioned-3000'), { nil: undefined, freq: 4 }),
  }),
  nfs: fc.record({
    nfs: fc.record({
      server: fc.constantFrom('nfs.example.com', '10.0.0.5'),
      path: fc.constantFrom('/exports', '/data/shared'),
      readOnly: fc.constantFrom(undefined, true),
    }),
  }),
  hostPath: fc.record({
    hostPath: fc.record({
      path: fc.constantFrom('/mnt/data', '/var/lib/app'),
      type: fc.constantFrom(undefined, '', 'DirectoryOrCreate', 'Directory'),
    }),
  }),
  local: fc.constantFrom('/mnt/disks/ssd1', '/dev/nvme0n1').map((path) => ({
    local: { path },
    nodeAffinity: {
      required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-1'] }] }] },
    },
  })),
  awsElasticBlockStore: fc.record({
    awsElasticBlockStore: fc.record({
      volumeID: fc.constantFrom('vol-0123456789abcdef0', 'aws://us-east-1a/vol-0fedcba9876543210'),
      fsType,
      partition: fc.constantFrom(undefined, 0, 1, 255),
      readOnly,
    }),
  }),
  azureDisk: fc.record({
    azureDisk: fc.oneof(
      fc.record({
        diskName: fc.constant('data-disk'),
        diskURI: fc.constant(
          '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/storage-rg/providers/Microsoft.Compute/disks/data-disk',
        ),
        kind: fc.constant('Managed'),
        cachingMode: fc.constantFrom(undefined, 'None', 'ReadOnly', 'ReadWrite'),
        fsType,
        readOnly,
      }),
      // A blob disk: kind defaults to Shared, whose URI is the blob's https address.
      fc.record({
        diskName: fc.constant('data.vhd'),
        diskURI: fc.constant('https://storageaccount.blob.core.windows.net/vhds/data.vhd'),
        kind: fc.constantFrom(undefined, 'Shared', 'Dedicated'),
        cachingMode: fc.constantFrom(undefined, 'None', 'ReadOnly'),
        fsType,
      }),
    ),
  }),
  azureFile: fc.record({
    azureFile: fc.record({
      secretName: fc.constantFrom('azure-storage', 'azure-secret'),
      shareName: fc.constantFrom('shared', 'k8stest'),
      secretNamespace: fc.constantFrom(undefined, 'default', 'storage'),
      readOnly,
    }),
  }),
  cephfs: fc.record({
    cephfs: fc.record({
      monitors: cephMonitors,
      path: fc.constantFrom(undefined, '/', '/volumes/shared'),
      user: fc.constantFrom(undefined, 'admin'),
      secretRef: secret('ceph-secret'),
      secretFile: fc.constantFrom(undefined, '/etc/ceph/admin.secret'),
      readOnly,
    }),
  }),
  cinder: fc.record({
    cinder: fc.record({ volumeID: uuid, fsType, readOnly, secretRef: secret('cinder-secret') }),
  }),
  fc: fc.record({
    fc: fc.oneof(
      fc.record({
        targetWWNs: fc.constantFrom(['500a0982991b8dc5'], ['500a0982991b8dc5', '500a0982891b8dc5']),
        lun: fc.constantFrom(0, 2, 255),
        fsType,
        readOnly,
      }),
      fc.record({ wwids: fc.constant(['3600508b400105e210000900000490000']), fsType }),
    ),
  }),
  flexVolume: fc.record({
    flexVolume: fc.record({
      driver: fc.constantFrom('example.com/lvm', 'kubernetes.io/lvm'),
      fsType,
      secretRef: secret('flex-secret'),
      readOnly,
      options: fc.constantFrom(undefined, { volumeID: 'vol1', size: '5G', volumegroup: 'kube_vg' }, { 'example.com/pool': 'fast' }),
    }),
  }),
  flocker: fc.record({
    flocker: fc.oneof(fc.record({ datasetName: fc.constantFrom('my-dataset', 'flocker-data') }), fc.record({ datasetUUID: uuid })),
  }),
  gcePersistentDisk: fc.record({
    gcePersistentDisk: fc.record({
      pdName: fc.constantFrom('my-data-disk', 'disk-1'),
      fsType,
      partition: fc.constantFrom(undefined, 0, 1),
      readOnly,
    }),
  }),
  glusterfs: fc.record({
    glusterfs: fc.record({
      endpoints: fc.constant('glusterfs-cluster'),
      path: fc.constantFrom('kube_vol', 'gv0'),
      endpointsNamespace: fc.constantFrom(undefined, 'default', 'storage'),
      readOnly,
    }),
  }),
  iscsi: fc
    .tuple(
      fc.record({
        targetPortal: fc.constantFrom('10.0.2.15:3260', '10.0.2.15'),
        portals: fc.constantFrom(undefined, ['10.0.2.16:3260', '10.0.2.17:3260']),
        iqn: fc.constantFrom(
          'iqn.2001-04.com.example:storage.kube.sys1.xyz',
          'eui.02004567A425678D',
          `naa.${'60014055f3d2c4b1'.repeat(2)}`,
        ),
        lun: fc.constantFrom(0, 1, 255),
        iscsiInterface: fc.constantFrom(undefined, 'default'),
        fsType,
        readOnly,
        // Dropped in pv.ts where the volume's name and the portal are too long for it.
        initiatorName: fc.constantFrom(undefined, 'iqn.1994-05.com.redhat:node1'),
      }),
      // CHAP needs the secret (its name); the secret alone is allowed.
      fc.constantFrom(
        {},
        { secretRef: { name: 'chap-secret' } },
        { chapAuthDiscovery: true, chapAuthSession: true, secretRef: { name: 'chap-secret', namespace: 'default' } },
      ),
    )
    .map(([iscsi, chap]) => ({ iscsi: { ...iscsi, ...chap } })),
  photonPersistentDisk: fc.record({
    photonPersistentDisk: fc.record({ pdID: fc.constant('ab1bd7da-e1c4-4f10-a0ce-e1a3f4e2b4c1'), fsType }),
  }),
  portworxVolume: fc.record({ portworxVolume: fc.record({ volumeID: volumeName, fsType, readOnly }) }),
  quobyte: fc.record({
    quobyte: fc.record({
      registry: fc.constantFrom('registry.example.com:7861', 'reg1.example.com:7861,reg2.example.com:7861'),
      volume: fc.constantFrom('testVolume', 'shared'),
      readOnly,
      user: fc.constantFrom(undefined, 'root'),
      group: fc.constantFrom(undefined, 'root'),
      tenant: fc.option(uuid, { nil: undefined }),
    }),
  }),
  rbd: fc.record({
    rbd: fc.record({
      monitors: cephMonitors,
      image: fc.constantFrom('foo', 'kube-image-1'),
      pool: fc.constantFrom(undefined, 'kube', 'rbd'),
      user: fc.constantFrom(undefined, 'admin'),
      keyring: fc.constantFrom(undefined, '/etc/ceph/keyring'),
      secretRef: secret('ceph-secret'),
      fsType,
      readOnly,
    }),
  }),
  scaleIO: fc.record({
    scaleIO: fc.record({
      gateway: fc.constantFrom('https://192.168.99.100:443/api', 'https://scaleio-gw.example.com/api'),
      system: fc.constantFrom('scaleio', 'sio-system'),
      volumeName,
      secretRef: fc.constantFrom({ name: 'sio-secret' }, { name: 'sio-secret', namespace: 'default' }),
      sslEnabled: fc.constantFrom(undefined, true),
      protectionDomain: fc.constantFrom(undefined, 'pd01'),
      storagePool: fc.constantFrom(undefined, 'sp01'),
      storageMode: fc.constantFrom(undefined, 'ThinProvisioned', 'ThickProvisioned'),
      fsType,
      readOnly,
    }),
  }),
  storageos: fc.record({
    storageos: fc.record({
      volumeName: fc.constantFrom('redis-vol01', 'data'),
      volumeNamespace: fc.constantFrom(undefined, 'default', 'team-a'),
      fsType,
      readOnly,
      secretRef: secret('storageos-secret'),
    }),
  }),
  vsphereVolume: fc.record({
    vsphereVolume: fc.record({
      volumePath: fc.constantFrom('[DatastoreName] volumes/myDisk.vmdk', '[datastore1] kubevols/data.vmdk'),
      fsType,
      storagePolicyName: fc.constantFrom(undefined, 'gold'),
    }),
  }),
};

/** Every source's member, for probes that put another source in its place. */
export const SOURCES = Object.keys(ARBITRARIES);

/** A CSI volume with its VolumeAttributesClass: the source a volume that sets every other member can have. */
export const csiWithClass = ARBITRARIES.csi!.filter((volume) => volume.volumeAttributesClassName !== undefined);

/** Exactly one source, each as likely as the others. */
export const source = fc.oneof(...Object.values(ARBITRARIES));
