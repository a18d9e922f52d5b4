/**
 * The immutable fields of built-in kinds: what `kubectl apply` of a new release's manifest over an
 * object made from the old one is refused for, by the rules of src/upgrade/immutable-fields.json
 * (the file itself: immutable-fields-data.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { immutableFieldsOf, immutableViolations } from '../../src/upgrade/immutable-fields.js';

const STORAGE_VALIDATION = 'https://github.com/kubernetes/kubernetes/blob/v1.32.0/pkg/apis/storage/validation/validation.go';

function storageClass(members: Record<string, unknown>) {
  return { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'ebs.csi.aws.com', ...members };
}

function service(spec: Record<string, unknown>) {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web' },
    spec: { selector: { app: 'web' }, ports: [{ port: 80 }], ...spec },
  };
}

function claim(storage: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...spec },
  };
}

function configMap(members: Record<string, unknown>) {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, ...members };
}

/** The pointers of what the update is refused for. */
function refused(before: { apiVersion: string; kind: string }, after: unknown): string[] {
  return immutableViolations(before.apiVersion, before.kind, before, after).map((violation) => violation.pointer);
}

describe('immutableViolations', () => {
  it('refuses a new StorageClass provisioner in the API server words, naming where the rule lives', () => {
    expect(
      immutableViolations('storage.k8s.io/v1', 'StorageClass', storageClass({}), storageClass({ provisioner: 'pd.csi.storage.gke.io' })),
    ).toEqual([
      {
        pointer: '/provisioner',
        message: 'updates to provisioner are forbidden.',
        source: `${STORAGE_VALIDATION} ValidateStorageClassUpdate`,
        writtenFrom: [],
      },
    ]);
  });

  it('finds nothing when the immutable fields stay, whatever else changes', () => {
    expect(
      refused(
        storageClass({ parameters: { type: 'gp3' } }),
        storageClass({ parameters: { type: 'gp3' }, allowVolumeExpansion: true, mountOptions: ['debug'] }),
      ),
    ).toEqual([]);
  });

  it('compares values as JSON, member order aside', () => {
    expect(
      refused(storageClass({ parameters: { type: 'gp3', iops: '3000' } }), storageClass({ parameters: { iops: '3000', type: 'gp3' } })),
    ).toEqual([]);
    expect(refused(storageClass({ parameters: { type: 'gp3' } }), storageClass({ parameters: { type: 'gp3', iops: '3000' } }))).toEqual([
      '/parameters',
    ]);
  });

  it('takes an absent field as the value the API server defaults it to', () => {
    expect(refused(storageClass({}), storageClass({ reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' }))).toEqual([]);
    expect(refused(storageClass({ reclaimPolicy: 'Delete' }), storageClass({}))).toEqual([]);
    expect(refused(storageClass({}), storageClass({ reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }))).toEqual([
      '/reclaimPolicy',
      '/volumeBindingMode',
    ]);
    const secret = (type?: string) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'tls' },
      ...(type === undefined ? {} : { type }),
    });
    expect(refused(secret(), secret('Opaque'))).toEqual([]);
    expect(refused(secret(), secret('kubernetes.io/tls'))).toEqual(['/type']);
  });

  it('keeps a Service clusterIP the new manifest leaves out, and refuses a different one', () => {
    expect(refused(service({ clusterIP: '10.96.0.10' }), service({}))).toEqual([]);
    expect(refused(service({ clusterIP: '10.96.0.10' }), service({ clusterIP: null }))).toEqual([]);
    expect(refused(service({ clusterIP: '10.96.0.10' }), service({ clusterIP: '10.96.0.11' }))).toEqual(['/spec/clusterIP']);
    // The old object had an address the server chose: a Service cannot become headless.
    expect(refused(service({}), service({ clusterIP: 'None' }))).toEqual(['/spec/clusterIP']);
    expect(
      immutableViolations('v1', 'Service', service({ clusterIP: '10.96.0.10' }), service({ clusterIP: '10.96.0.11' }))[0]?.message,
    ).toBe('may not change once set');
  });

  it('lets a Service move to or from ExternalName without its cluster addresses', () => {
    expect(
      refused(service({ clusterIP: '10.96.0.10' }), service({ type: 'ExternalName', externalName: 'db.example.com', clusterIP: '' })),
    ).toEqual([]);
    expect(refused(service({ type: 'ExternalName', externalName: 'db.example.com' }), service({ clusterIP: '10.96.0.12' }))).toEqual([]);
  });

  it('judges a loadBalancerClass only while the Service stays a LoadBalancer', () => {
    const balancer = (members: Record<string, unknown>) => service({ type: 'LoadBalancer', ...members });
    expect(refused(balancer({ loadBalancerClass: 'example.com/internal' }), balancer({ loadBalancerClass: 'example.com/public' }))).toEqual(
      ['/spec/loadBalancerClass'],
    );
    expect(refused(balancer({ loadBalancerClass: 'example.com/internal' }), service({ type: 'ClusterIP' }))).toEqual([]);
  });

  it('lets a claim be bound to a volume once, never moved to another', () => {
    expect(refused(claim('1Gi'), claim('1Gi', { volumeName: 'pv-disk-1' }))).toEqual([]);
    expect(refused(claim('1Gi', { volumeName: 'pv-disk-1' }), claim('1Gi', { volumeName: 'pv-disk-2' }))).toEqual(['/spec/volumeName']);
    expect(refused(claim('1Gi', { volumeName: 'pv-disk-1' }), claim('1Gi'))).toEqual(['/spec/volumeName']);
  });

  it('lets a claim grow its storage request, never shrink it, comparing Kubernetes quantities', () => {
    expect(immutableViolations('v1', 'PersistentVolumeClaim', claim('10Gi'), claim('5Gi'))).toEqual([
      {
        pointer: '/spec/resources/requests/storage',
        message: 'field can not be less than status.capacity',
        source: expect.stringContaining('ValidatePersistentVolumeClaimUpdate'),
        writtenFrom: [],
      },
    ]);
    expect(refused(claim('1Gi'), claim('1024Mi'))).toEqual([]);
    expect(refused(claim('1Gi'), claim('2Gi'))).toEqual([]);
    expect(refused(claim('1.5Gi'), claim('1536Mi'))).toEqual([]);
    expect(refused(claim('1G'), claim('1Gi'))).toEqual([]);
    expect(refused(claim('1Gi'), claim('1G'))).toEqual(['/spec/resources/requests/storage']);
    expect(refused(claim('2e9'), claim('2G'))).toEqual([]);
    expect(refused(claim('500M'), claim('0.4G'))).toEqual(['/spec/resources/requests/storage']);
  });

  it('refuses the rest of a claim spec', () => {
    expect(refused(claim('1Gi'), claim('1Gi', { accessModes: ['ReadWriteMany'], volumeMode: 'Block' }))).toEqual([
      '/spec/accessModes',
      '/spec/volumeMode',
    ]);
  });

  it('fixes the data of a ConfigMap only once the old one was immutable', () => {
    expect(refused(configMap({ data: { mode: 'a' } }), configMap({ data: { mode: 'b' } }))).toEqual([]);
    expect(refused(configMap({ data: { mode: 'a' } }), configMap({ immutable: true, data: { mode: 'b' } }))).toEqual([]);
    expect(refused(configMap({ immutable: true, data: { mode: 'a' } }), configMap({ immutable: true, data: { mode: 'b' } }))).toEqual([
      '/data',
    ]);
    expect(refused(configMap({ immutable: true, data: { mode: 'a' } }), configMap({ data: { mode: 'a' } }))).toEqual(['/immutable']);
  });

  it('judges a Secret as the API server stores it: stringData folded into data, so equal content in either passes', () => {
    const secret = (members: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db' },
      immutable: true,
      ...members,
    });
    const password = Buffer.from('s3cret').toString('base64');
    expect(refused(secret({ stringData: { password: 's3cret' } }), secret({ data: { password } }))).toEqual([]);
    const changed = immutableViolations(
      'v1',
      'Secret',
      secret({ stringData: { password: 's3cret' } }),
      secret({ stringData: { password: 'other' } }),
    );
    expect(changed.map(({ pointer, writtenFrom }) => ({ pointer, writtenFrom }))).toEqual([
      { pointer: '/data', writtenFrom: ['/stringData'] },
    ]);
  });

  it('compares an unordered list as a set', () => {
    const quota = (scopes: string[]) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'compute' }, spec: { scopes } });
    expect(refused(quota(['Terminating', 'BestEffort']), quota(['BestEffort', 'Terminating']))).toEqual([]);
    expect(refused(quota(['Terminating']), quota(['NotTerminating']))).toEqual(['/spec/scopes']);
  });

  it('refuses a StatefulSet spec change outside what may change', () => {
    const set = (storage: string, replicas: number) => ({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: {
        replicas,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { resources: { requests: { storage } } } }],
      },
    });
    expect(refused(set('1Gi', 1), set('1Gi', 3))).toEqual([]);
    expect(immutableViolations('apps/v1', 'StatefulSet', set('1Gi', 1), set('2Gi', 1))).toEqual([
      {
        pointer: '/spec/volumeClaimTemplates',
        message:
          "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
        source: expect.stringContaining('ValidateStatefulSetUpdate'),
        writtenFrom: [],
      },
    ]);
  });

  it('lets an Indexed Job change its completions, not another Job', () => {
    const job = (completions: number, completionMode?: string) => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'load' },
      spec: { completions, parallelism: completions, completionMode, template: { spec: { restartPolicy: 'Never' } } },
    });
    expect(refused(job(3), job(5))).toEqual(['/spec/completions']);
    expect(refused(job(3, 'Indexed'), job(5, 'Indexed'))).toEqual([]);
  });

  it('refuses another roleRef of a binding', () => {
    const binding = (name: string) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'read' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: [],
    });
    expect(immutableViolations('rbac.authorization.k8s.io/v1', 'RoleBinding', binding('view'), binding('edit'))[0]?.message).toBe(
      'cannot change roleRef',
    );
  });

  it('finds nothing for a kind not listed', () => {
    const ingress = (host: string) => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'web' },
      spec: { ingressClassName: host, rules: [{ host }] },
    });
    expect(refused(ingress('a.example.com'), ingress('b.example.com'))).toEqual([]);
    expect(immutableFieldsOf('networking.k8s.io/v1', 'Ingress')).toEqual([]);
    expect(immutableFieldsOf('example.com/v1', 'WebApp')).toEqual([]);
  });
});
