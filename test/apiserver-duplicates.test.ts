/**
 * The API server's duplicate searches, ported as Go keys them (issue 41): a map of the keys seen, so
 * a list as long as MAX_ITEMS allows is judged in linear time, with Go's errors in Go's order. A
 * search among the earlier items took 64 s for 80,000 Service ports and 249 s for 20,000
 * StorageClass topology terms, and the kind's OpenAPI check of 80,000 failing ipFamilies 71 s
 * (kubernetes-models' validators copied a list's errors for each failing item); each case below
 * takes a second or two. The timeouts are generous bounds that only the quadratic work reaches,
 * not speed goals.
 */
import { describe, expect, it } from 'vitest';
import { checkManifest } from '../src/manifest/kube-check.js';

const GENEROUS_MS = 30_000;

describe('duplicate searches of the API server are linear, and say what Go says where Go says it', () => {
  it(
    'Service ports: 80,000 named ports, ports 1 to 65535 and then 1 again, each repeat a duplicate (protocol, port)',
    () => {
      const ports = Array.from({ length: 80_000 }, (_, i) => ({ name: `p${i}`, port: (i % 65535) + 1, protocol: 'TCP', targetPort: 8080 }));
      // A repeated port under another protocol is no duplicate; a repeated nodePort under the same one is.
      ports.push({ name: 'udp', port: 1, protocol: 'UDP', targetPort: 8080 });
      const manifest = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec: { ports } };
      const { errors } = checkManifest(manifest);
      expect(errors).toHaveLength(80_000 - 65535);
      expect(errors[0]).toBe(
        '/spec/ports/65535 Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:1, ' +
          'TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
      );
      expect(errors.at(-1)).toMatch(/^\/spec\/ports\/79999 Duplicate value: core\.ServicePort\{.*Port:14465,/);
    },
    GENEROUS_MS,
  );

  it('Service nodePorts: a repeated (protocol, nodePort) is a duplicate at its nodePort', () => {
    const ports = [
      { name: 'a', port: 80, nodePort: 30080, protocol: 'TCP' },
      { name: 'b', port: 81, nodePort: 30080, protocol: 'UDP' },
      { name: 'c', port: 82, nodePort: 30080, protocol: 'TCP' },
    ];
    const manifest = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { type: 'NodePort', ports },
    };
    expect(checkManifest(manifest).errors).toEqual(['/spec/ports/2/nodePort Duplicate value: 30080']);
  });

  it(
    'StorageClass allowedTopologies: 20,000 terms, each repeat and each empty term a duplicate (Go: an empty term equals the nil maps it starts with)',
    () => {
      const terms = Array.from({ length: 20_000 }, (_, i) => ({
        matchLabelExpressions: [{ key: 'zone', values: [`z${i % 10_000}`, 'a'] }],
      }));
      // The same term with its values in another order is the same set: a duplicate too.
      terms.push({ matchLabelExpressions: [{ key: 'zone', values: ['a', 'z0'] }] });
      terms.push({ matchLabelExpressions: [] });
      const manifest = {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'sc' },
        provisioner: 'a.b/c',
        allowedTopologies: terms,
      };
      const { errors } = checkManifest(manifest);
      const duplicate = (i: number) => `/allowedTopologies/${i}/matchLabelExpressions Duplicate value: ""`;
      expect(errors).toHaveLength(10_002);
      expect(errors[0]).toBe(duplicate(10_000));
      expect(errors.slice(-2)).toEqual([duplicate(20_000), duplicate(20_001)]);
    },
    GENEROUS_MS,
  );

  it(
    "Service ipFamilies: 80,000 families, each unsupported (the kind's OpenAPI enum too) and a repeat a duplicate",
    () => {
      // kubernetes-models' validators merged each failing item's errors by copying the list's (71 s here).
      const ipFamilies = [...Array.from({ length: 80_000 }, (_, i) => `F${i}`), 'F0'];
      const manifest = {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web', namespace: 'default' },
        spec: { ports: [{ port: 80 }], ipFamilies },
      };
      const { errors } = checkManifest(manifest);
      expect(errors).toHaveLength(80_002);
      expect(errors[0]).toBe('/spec/ipFamilies/0 Unsupported value: "F0": supported values: "IPv4", "IPv6"');
      expect(errors.filter((error) => error.includes('Duplicate'))).toEqual(['/spec/ipFamilies/80000 Duplicate value: "F0"']);
    },
    GENEROUS_MS,
  );
});
