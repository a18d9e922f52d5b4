/**
 * Services (core/validation ValidateService): ClusterIP, headless, NodePort, LoadBalancer and
 * ExternalName, and the probes of their ports (missing, names required when more than one, duplicate
 * names, duplicate port and protocol, ranges, targetPort, nodePort with ClusterIP, protocols) and
 * neighbours.
 * `clusterIPs` follows `clusterIP` and a health-check node port is allocated before validation (the
 * Service storage does it, and so do the oracle and facetform): both are generated with and without.
 */
import fc from 'fast-check';
import { type KindGenerator, type Manifest, probe } from './case.js';
import { metadataProbes } from './metadata.js';
import { candidate, labelKeyCandidate } from './near-miss.js';
import { validService } from './service-valid.js';

/** The ports of the manifest, at least `count` of them (copies of the first, renamed and renumbered). */
function atLeast(m: Manifest, count: number): Manifest[] {
  const list: Manifest[] = (m.spec.ports ??= [{ name: 'http', port: 80 }]);
  if (list.length === 0) list.push({ name: 'http', port: 80 });
  while (list.length < count)
    list.push({ ...list[0], name: `p${list.length}`, port: (list[0]!.port % 60000) + list.length, nodePort: undefined });
  if (m.spec.type === 'ExternalName' || m.spec.clusterIP === 'None') delete m.spec.type;
  return list;
}

/** Makes the Service of `type` (not headless, no externalName), keeping its ports. */
function setType(m: Manifest, type: string): void {
  atLeast(m, 1);
  for (const field of [
    'clusterIP',
    'clusterIPs',
    'externalName',
    'externalTrafficPolicy',
    'healthCheckNodePort',
    'loadBalancerSourceRanges',
    'allocateLoadBalancerNodePorts',
  ])
    delete m.spec[field];
  for (const port of m.spec.ports) delete port.nodePort;
  m.spec.type = type;
}

const portField = <T>(rule: string, field: string, value: fc.Arbitrary<T>, weight?: number) =>
  probe(
    rule,
    fc.tuple(value, fc.nat()),
    (m, [v, i]) => {
      const list = atLeast(m, 1);
      list[i % list.length]![field] = v;
    },
    weight,
  );

export const service: KindGenerator = {
  apiVersion: 'v1',
  kind: 'Service',
  namespaced: true,
  valid: validService,
  probes: [
    ...metadataProbes({ nameRule: 'dns1035Label', namespaced: true }),
    probe('ports/missing', fc.boolean(), (m, empty) => (empty ? (m.spec.ports = []) : delete m.spec.ports), 2),
    probe(
      'ports/unnamed-of-many',
      fc.nat(),
      (m, i) => {
        const list = atLeast(m, 2);
        delete list[i % list.length]!.name;
      },
      2,
    ),
    probe(
      'ports/duplicate-name',
      fc.nat(),
      (m, i) => {
        const list = atLeast(m, 2);
        list[(i % (list.length - 1)) + 1]!.name = list[0]!.name;
      },
      2,
    ),
    probe(
      'ports/duplicate-port',
      fc.constantFrom(undefined, 'TCP', 'UDP'),
      (m, protocol) => {
        const list = atLeast(m, 2);
        list[1] = { ...list[1], port: list[0]!.port, protocol };
      },
      2,
    ),
    portField('ports/name', 'name', candidate('dns1123Label'), 2),
    portField('ports/port-range', 'port', fc.constantFrom(0, 1, 65535, 65536, -1, 2147483647), 2),
    portField(
      'ports/targetPort',
      'targetPort',
      fc.oneof(
        fc.constantFrom(0, 1, 65535, 65536, -8080),
        candidate('portName'),
        fc.constantFrom('', '8080', 'http-', 'a--b', 'abcdefghijklmnop'),
      ),
      3,
    ),
    portField('ports/nodePort', 'nodePort', fc.constantFrom(30080, 1, 65535, 65536, 0, -1), 3),
    probe('ports/duplicate-nodePort', fc.constantFrom('NodePort', 'LoadBalancer'), (m, type) => {
      const list = atLeast(m, 2);
      m.spec.type = type;
      (delete m.spec.clusterIP,
        delete m.spec.clusterIPs,
        delete m.spec.externalName,
        delete m.spec.sessionAffinity,
        delete m.spec.sessionAffinityConfig);
      list[0]!.nodePort = list[1]!.nodePort = 30080;
    }),
    portField('ports/protocol', 'protocol', fc.constantFrom('TCP', 'UDP', 'SCTP', 'tcp', 'HTTP', ''), 2),
    portField('ports/appProtocol', 'appProtocol', candidate('qualifiedName')),
    probe(
      'spec/type',
      fc.constantFrom('ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName', 'clusterip', 'Headless', ''),
      (m, type) => (m.spec.type = type),
      2,
    ),
    probe(
      'spec/headless',
      fc.constantFrom(undefined, 'ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'),
      (m, type) => {
        Object.assign(m.spec, { clusterIP: 'None', clusterIPs: type === 'NodePort' ? undefined : ['None'], type });
        if (type === 'ExternalName') m.spec.externalName = 'db.example.com';
        else delete m.spec.externalName;
      },
      2,
    ),
    probe(
      'spec/clusterIP',
      fc.tuple(
        fc.constantFrom('None', '10.96.0.10', '2001:db8::a', '10.96.0.300', 'not-an-ip', '', '0.0.0.0', '010.96.0.10'),
        fc.constantFrom('absent', 'same', 'other', 'none-and-ip', 'dual'),
      ),
      (m, [clusterIP, ips]) => {
        setType(m, 'ClusterIP');
        m.spec.clusterIP = clusterIP;
        m.spec.clusterIPs = {
          absent: undefined,
          same: [clusterIP],
          other: ['10.96.0.11'],
          'none-and-ip': ['None', '10.96.0.10'],
          dual: [clusterIP, '2001:db8::b'],
        }[ips];
      },
      3,
    ),
    probe(
      'spec/externalName',
      fc.tuple(fc.oneof(candidate('dns1123Subdomain'), fc.constantFrom('db.example.com.', '.', '10.0.0.1', '*.example.com')), fc.boolean()),
      (m, [externalName, withIP]) => {
        m.spec = {
          type: 'ExternalName',
          externalName,
          ...(withIP ? { clusterIP: 'None', clusterIPs: ['None'] } : {}),
          ...(m.spec.ports ? { ports: m.spec.ports } : {}),
        };
      },
      2,
    ),
    probe(
      'spec/sessionAffinity',
      fc.tuple(fc.constantFrom('ClientIP', 'None', 'Sticky'), fc.constantFrom(undefined, 0, 1, 86400, 86401)),
      (m, [sessionAffinity, timeoutSeconds]) => {
        Object.assign(m.spec, {
          sessionAffinity,
          sessionAffinityConfig: timeoutSeconds === undefined ? undefined : { clientIP: { timeoutSeconds } },
        });
      },
    ),
    probe(
      'spec/externalTrafficPolicy',
      fc.tuple(fc.constantFrom('ClusterIP', 'NodePort', 'LoadBalancer'), fc.constantFrom('Cluster', 'Local', 'local')),
      (m, [type, policy]) => {
        setType(m, type);
        m.spec.externalTrafficPolicy = policy;
      },
      2,
    ),
    probe(
      'spec/healthCheckNodePort',
      fc.tuple(fc.constantFrom('ClusterIP', 'NodePort', 'LoadBalancer'), fc.constantFrom(30999, 0, 65536, -1)),
      (m, [type, port]) => {
        setType(m, type);
        Object.assign(m.spec, { externalTrafficPolicy: type === 'ClusterIP' ? undefined : 'Local', healthCheckNodePort: port });
      },
    ),
    probe(
      'spec/internalTrafficPolicy',
      fc.constantFrom('Cluster', 'Local', 'Node'),
      (m, policy) => (m.spec.internalTrafficPolicy = policy),
    ),
    probe(
      'spec/selector',
      fc.tuple(labelKeyCandidate, candidate('labelValue')),
      (m, [key, value]) => ((m.spec.selector ??= {})[key] = value),
      2,
    ),
    probe(
      'spec/externalIPs',
      fc.constantFrom('192.0.2.10', '2001:db8::10', '127.0.0.1', '0.0.0.0', '::1', '169.254.1.1', 'not-an-ip', '10.0.0.1/24', '010.0.0.1'),
      (m, ip) => (m.spec.externalIPs = [ip]),
    ),
    probe(
      'spec/loadBalancerSourceRanges',
      fc.tuple(
        fc.constantFrom('ClusterIP', 'LoadBalancer'),
        fc.constantFrom('10.0.0.0/8', ' 10.0.0.0/8 ', '10.0.0.1', '300.0.0.0/8', '10.0.0.1/8'),
      ),
      (m, [type, range]) => {
        setType(m, type);
        m.spec.loadBalancerSourceRanges = [range];
      },
    ),
    probe(
      'spec/allocateLoadBalancerNodePorts',
      fc.tuple(fc.constantFrom('ClusterIP', 'NodePort', 'LoadBalancer'), fc.boolean()),
      (m, [type, allocate]) => {
        setType(m, type);
        m.spec.allocateLoadBalancerNodePorts = allocate;
      },
    ),
    probe('decode/unknown-field', fc.constantFrom('clusterIp', 'port', 'foo'), (m, field) => (m.spec[field] = 'x'), 0.5),
    portField('decode/wrong-type', 'port', fc.constantFrom('80', 80.5, true), 0.5),
  ],
};
