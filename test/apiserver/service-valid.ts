/**
 * Valid Services: ClusterIP (with and without a clusterIP of its own), headless, NodePort,
 * LoadBalancer and ExternalName, with realistic ports, selectors and session affinity.
 */
import fc from 'fast-check';
import type { Manifest } from './case.js';
import { validMetadata } from './metadata.js';
import { validString } from './strings.js';

const protocol = fc.option(fc.constantFrom('TCP', 'UDP', 'SCTP'), { nil: undefined, freq: 2 });
const targetPort = fc.option(fc.oneof(fc.integer({ min: 1, max: 65535 }), validString('portName')), { nil: undefined });
const appProtocol = fc.option(fc.constantFrom('http', 'https', 'kubernetes.io/h2c', 'kubernetes.io/ws'), { nil: undefined, freq: 4 });

/** 1 to 3 ports, names unique (and present when more than one), port numbers unique. */
const ports = (nodePorts: boolean) =>
  fc
    .uniqueArray(
      fc.record({ name: validString('dns1123Label'), port: fc.integer({ min: 1, max: 65535 }), protocol, targetPort, appProtocol }),
      {
        minLength: 1,
        maxLength: 3,
        selector: (p) => p.name,
      },
    )
    .chain((list) =>
      fc.tuple(
        fc.constant(list),
        fc.boolean(),
        fc.uniqueArray(fc.integer({ min: 30000, max: 32767 }), { minLength: list.length, maxLength: list.length }),
      ),
    )
    .map(([list, named, nodePortNumbers]) =>
      list
        .filter((p, i) => list.findIndex((q) => q.port === p.port) === i)
        .map((p, i, all) => ({
          ...p,
          name: all.length > 1 || named ? p.name : undefined,
          nodePort: nodePorts && i % 2 === 0 ? nodePortNumbers[i] : undefined,
        })),
    );

const selector = fc.option(fc.dictionary(validString('qualifiedName'), validString('labelValue'), { minKeys: 1, maxKeys: 2 }), {
  nil: undefined,
  freq: 5,
});
const clientIpAffinity = fc
  .integer({ min: 1, max: 86400 })
  .map((timeoutSeconds) => ({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds } } }));

const affinity = fc.option(fc.oneof(fc.constant({ sessionAffinity: 'None' }), clientIpAffinity), { nil: undefined });

/** A cluster IP per family, with the families and the policy that agree with them. */
const ADDRESSES = [
  { clusterIP: '10.96.0.20', clusterIPs: ['10.96.0.20'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' },
  {
    clusterIP: '10.96.0.21',
    clusterIPs: ['10.96.0.21', 'fd00:10:96::21'],
    ipFamilies: ['IPv4', 'IPv6'],
    ipFamilyPolicy: 'RequireDualStack',
  },
  {
    clusterIP: 'fd00:10:96::22',
    clusterIPs: ['fd00:10:96::22', '10.96.0.22'],
    ipFamilies: ['IPv6', 'IPv4'],
    ipFamilyPolicy: 'PreferDualStack',
  },
];

const specs = fc.oneof(
  fc.record({
    type: fc.constantFrom('ClusterIP', undefined),
    ports: ports(false),
    selector,
    affinity,
    internalTrafficPolicy: fc.constantFrom(undefined, 'Cluster', 'Local'),
  }),
  fc
    .record({
      type: fc.constantFrom('ClusterIP', undefined),
      clusterIP: fc.constantFrom('10.96.0.10', '10.0.171.239', '2001:db8::1234'),
      ports: ports(false),
      selector,
    })
    .chain((spec) => fc.boolean().map((both) => (both ? { ...spec, clusterIPs: [spec.clusterIP] } : spec))),
  fc.record({
    clusterIP: fc.constant('None'),
    clusterIPs: fc.constantFrom(['None'], undefined),
    ports: fc.option(ports(false), { nil: undefined }),
    selector,
    affinity,
  }),
  fc.record({
    type: fc.constant('NodePort'),
    ports: ports(true),
    selector,
    externalTrafficPolicy: fc.constantFrom(undefined, 'Cluster', 'Local'),
  }),
  fc.record({
    type: fc.constant('LoadBalancer'),
    ports: ports(false),
    selector,
    externalTrafficPolicy: fc.constantFrom(undefined, 'Cluster', 'Local'),
    loadBalancerSourceRanges: fc.option(fc.constantFrom(['10.0.0.0/8'], ['192.168.0.0/16', '2001:db8::/32']), { nil: undefined }),
    allocateLoadBalancerNodePorts: fc.option(fc.boolean(), { nil: undefined }),
  }),
  // Every member a LoadBalancer Service can have at once (externalName is ignored but allowed).
  fc.record({
    type: fc.constant('LoadBalancer'),
    ports: ports(false),
    selector,
    affinity: clientIpAffinity,
    addresses: fc.constantFrom(...ADDRESSES),
    externalIPs: fc.constantFrom(['203.0.113.10'], ['198.51.100.7', '2001:db8::7']),
    externalName: validString('dns1123Subdomain'),
    externalTrafficPolicy: fc.constant('Local'),
    healthCheckNodePort: fc.integer({ min: 30000, max: 32767 }),
    internalTrafficPolicy: fc.constantFrom('Cluster', 'Local'),
    loadBalancerClass: fc.constantFrom('example.com/internal-vip', 'service.k8s.aws/nlb'),
    loadBalancerIP: fc.constantFrom('203.0.113.20', '198.51.100.30'),
    loadBalancerSourceRanges: fc.constantFrom(['10.0.0.0/8'], ['192.168.0.0/16', '2001:db8::/32']),
    allocateLoadBalancerNodePorts: fc.boolean(),
    publishNotReadyAddresses: fc.boolean(),
    trafficDistribution: fc.constant('PreferClose'),
  }),
  fc.record({
    type: fc.constant('ExternalName'),
    externalName: fc.oneof(
      validString('dns1123Subdomain'),
      validString('dns1123Subdomain').map((host) => `${host}.`),
    ),
    ports: fc.option(ports(false), { nil: undefined, freq: 3 }),
  }),
);

export const validService = fc
  .tuple(validMetadata({ nameRule: 'dns1035Label', namespaced: true }), specs as fc.Arbitrary<Manifest>)
  .map(([metadata, { affinity, addresses, ...spec }]) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata,
    spec: { ...spec, ...addresses, ...affinity },
  }));
