/**
 * Quantities whose exponent runs to 100,000 digits: Go keeps `1e99999` as an inf.Dec of that many
 * digits and still answers, and parses `1e-100001` and `1234567890123456789e100001`. A claim's
 * storage and a volume's capacity of each, judged by the oracle into test/vectors by
 * scripts/oracle-case-vectors.ts.
 */
import type { HandWrittenCase } from './vectors.js';

const STORAGES = ['-1234567890123456789e99999', '1234567890123456789e100001', '1e-100001', '-1e-100001', '1234567890123456789e-99990'];

export const HUGE_QUANTITY_CASES: HandWrittenCase[] = [
  ...STORAGES.map((storage) => ({
    kind: 'PersistentVolume',
    rule: 'modes/capacity',
    manifest: {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'data' },
      spec: {
        accessModes: ['ReadWriteOnce'],
        capacity: { storage },
        csi: { driver: 'disk.csi.azure.com', volumeHandle: 'projects/p/disks/d', fsType: 'ext4' },
      },
    },
  })),
  ...STORAGES.map((storage) => ({
    kind: 'PersistentVolumeClaim',
    rule: 'modes/storage',
    manifest: {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'shop' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } },
    },
  })),
];
