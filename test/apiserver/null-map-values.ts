/**
 * Null as a map's value (issue 41): Go's decoder stores the value type's zero value (`""` in a
 * map[string]string), so the API server takes `labels: {app: null}`, as a YAML `app:` with nothing
 * after it is, and still judges the key. Judged by the oracle into test/vectors by
 * scripts/oracle-case-vectors.ts.
 */
import type { HandWrittenCase } from './vectors.js';

const meta = (extra: Record<string, unknown> = {}) => ({ name: 'web', namespace: 'default', ...extra });

export const NULL_MAP_VALUE_CASES: HandWrittenCase[] = [
  {
    kind: 'ConfigMap',
    rule: 'null-map-value/accepted',
    manifest: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta({ labels: { app: null }, annotations: { 'example.com/owner': null } }),
      data: { EMPTY: null, LOG_LEVEL: 'info' },
      binaryData: { blob: null },
    },
  },
  {
    kind: 'ConfigMap',
    rule: 'null-map-value/key-still-judged',
    manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta({ labels: { 'bad key!': null } }), data: { 'bad key!': null } },
  },
  {
    kind: 'Service',
    rule: 'null-map-value/accepted',
    manifest: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta({ labels: { tier: null } }),
      spec: { selector: { app: null }, ports: [{ port: 80 }] },
    },
  },
  {
    kind: 'PersistentVolumeClaim',
    rule: 'null-map-value/accepted',
    manifest: {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: meta(),
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, selector: { matchLabels: { tier: null } } },
    },
  },
  {
    kind: 'Secret',
    rule: 'null-map-value/accepted',
    manifest: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta({ annotations: { a: null } }),
      data: { token: null },
      stringData: { user: null },
    },
  },
  {
    kind: 'StorageClass',
    rule: 'null-map-value/accepted',
    manifest: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'fast', labels: { a: null } },
      provisioner: 'a.b/c',
      parameters: { type: null },
    },
  },
  {
    kind: 'IngressClass',
    rule: 'null-map-value/accepted',
    manifest: {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name: 'nginx', annotations: { 'ingressclass.kubernetes.io/is-default-class': null } },
      spec: { controller: 'k8s.io/ingress-nginx' },
    },
  },
];
