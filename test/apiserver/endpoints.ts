/**
 * Endpoints (core/validation ValidateEndpoints): subsets of addresses (IP, hostname, nodeName) and
 * ports; probes of addresses missing, IPs that are loopback, link-local, unspecified or not IPs at
 * all, and of the ports (names required when more than one, ranges, protocols).
 */
import fc from 'fast-check';
import { type KindGenerator, type Manifest, probe } from './case.js';
import { metadataProbes, validMetadata } from './metadata.js';
import { candidate } from './near-miss.js';
import { validString } from './strings.js';

const ipv4 = fc
  .tuple(fc.constantFrom('10', '172.16', '192.168', '100.64'), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 }))
  .map(([net, a, b]) => (net.includes('.') ? `${net}.${a}.${b}` : `${net}.${a}.0.${b}`));
const ipv6 = fc.integer({ min: 1, max: 0xffff }).map((n) => `2001:db8::${n.toString(16)}`);
const ip = fc.oneof({ arbitrary: ipv4, weight: 4 }, { arbitrary: ipv6, weight: 1 });

const address = fc.record({
  ip,
  hostname: fc.option(validString('dns1123Label'), { nil: undefined, freq: 4 }),
  nodeName: fc.option(validString('dns1123Subdomain'), { nil: undefined, freq: 3 }),
  targetRef: fc.option(
    validString('dns1123Subdomain').map((name) => ({ kind: 'Pod', name, namespace: 'default' })),
    { nil: undefined, freq: 3 },
  ),
});

/** Ports, names present and unique when there are more than one. */
const ports = fc
  .uniqueArray(
    fc.record({
      name: validString('dns1123Label'),
      port: fc.integer({ min: 1, max: 65535 }),
      protocol: fc.option(fc.constantFrom('TCP', 'UDP', 'SCTP'), { nil: undefined }),
      appProtocol: fc.option(fc.constantFrom('http', 'kubernetes.io/h2c'), { nil: undefined, freq: 4 }),
    }),
    { minLength: 0, maxLength: 3, selector: (p) => p.name },
  )
  .chain((list) => fc.boolean().map((named) => list.map((p) => ({ ...p, name: list.length > 1 || named ? p.name : undefined }))));

const subset = fc
  .record({
    addresses: fc.array(address, { minLength: 0, maxLength: 3 }),
    notReadyAddresses: fc.array(address, { minLength: 0, maxLength: 2 }),
    ports,
  })
  .map((s) => (s.addresses.length + s.notReadyAddresses.length === 0 ? { ...s, addresses: [{ ip: '10.0.0.1' }] } : s));

const valid = fc
  .tuple(validMetadata({ nameRule: 'dns1123Subdomain', namespaced: true }), fc.array(subset, { minLength: 0, maxLength: 2 }))
  .map(([metadata, subsets]) => ({ apiVersion: 'v1', kind: 'Endpoints', metadata, ...(subsets.length > 0 ? { subsets } : {}) }));

/** The first subset of the manifest, made when there is none. */
function firstSubset(m: Manifest): Manifest {
  m.subsets ??= [];
  if (m.subsets.length === 0) m.subsets.push({ addresses: [{ ip: '10.0.0.1' }] });
  return m.subsets[0];
}

/** Some address of the first subset. */
function someAddress(m: Manifest, i: number): Manifest {
  const s = firstSubset(m);
  const list = [...(s.addresses ?? []), ...(s.notReadyAddresses ?? [])];
  return list[i % list.length]!;
}

function somePorts(m: Manifest, count: number): Manifest[] {
  const s = firstSubset(m);
  s.ports ??= [];
  while (s.ports.length < count) s.ports.push({ name: `p${s.ports.length}`, port: 8080 + s.ports.length });
  return s.ports;
}

const SPECIAL_IPS = [
  '127.0.0.1',
  '0.0.0.0',
  '::',
  '169.254.169.254',
  '224.0.0.1',
  '224.0.1.1',
  'ff02::1',
  '::1',
  'fe80::1',
  '10.0.0.300',
  'not-an-ip',
  '',
  '010.001.002.003',
  '::ffff:10.0.0.1',
  '1.2.3.4',
  '2001:db8::1',
  '10.0.0.1/32',
];

export const endpoints: KindGenerator = {
  apiVersion: 'v1',
  kind: 'Endpoints',
  namespaced: true,
  valid,
  probes: [
    ...metadataProbes({ nameRule: 'dns1123Subdomain', namespaced: true }),
    probe(
      'spec/addresses-missing',
      fc.constantFrom('empty', 'absent', 'not-ready-only'),
      (m, how) => {
        const s = firstSubset(m);
        if (how === 'not-ready-only') s.notReadyAddresses = [...(s.addresses ?? []), ...(s.notReadyAddresses ?? [])];
        if (how === 'empty') s.addresses = [];
        else delete s.addresses;
        if (how !== 'not-ready-only') delete s.notReadyAddresses;
      },
      2,
    ),
    probe('spec/ip', fc.tuple(fc.constantFrom(...SPECIAL_IPS), fc.nat()), (m, [value, i]) => (someAddress(m, i).ip = value), 4),
    probe('spec/hostname', fc.tuple(candidate('dns1123Label'), fc.nat()), (m, [value, i]) => (someAddress(m, i).hostname = value), 2),
    probe('spec/nodeName', fc.tuple(candidate('dns1123Subdomain'), fc.nat()), (m, [value, i]) => (someAddress(m, i).nodeName = value), 2),
    probe(
      'ports/unnamed-of-many',
      fc.nat(),
      (m, i) => {
        const list = somePorts(m, 2);
        delete list[i % list.length]!.name;
      },
      2,
    ),
    probe('ports/duplicate-name', fc.constant(null), (m) => {
      const list = somePorts(m, 2);
      list[1]!.name = list[0]!.name;
    }),
    probe(
      'ports/name',
      fc.tuple(candidate('dns1123Label'), fc.nat()),
      (m, [name, i]) => {
        const list = somePorts(m, 1);
        list[i % list.length]!.name = name;
      },
      2,
    ),
    probe('ports/port-range', fc.constantFrom(0, 1, 65535, 65536, -1), (m, port) => (somePorts(m, 1)[0]!.port = port), 2),
    probe(
      'ports/protocol',
      fc.constantFrom('TCP', 'UDP', 'SCTP', 'tcp', 'HTTP', ''),
      (m, protocol) => (somePorts(m, 1)[0]!.protocol = protocol),
      2,
    ),
    probe('ports/appProtocol', candidate('qualifiedName'), (m, appProtocol) => (somePorts(m, 1)[0]!.appProtocol = appProtocol)),
    probe('decode/unknown-field', fc.constantFrom('address', 'ip', 'spec'), (m, field) => (firstSubset(m)[field] = 'x'), 0.5),
    probe('decode/wrong-type', fc.constantFrom('80', 80.5), (m, port) => (somePorts(m, 1)[0]!.port = port), 0.5),
  ],
};
