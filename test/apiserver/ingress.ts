/**
 * Ingresses (networking/validation): rules, hosts (DNS subdomains or wildcards, not
 * IPs), paths (absolute for Prefix and Exact, no `//`, `/./`, `/../`, `%2f`, no `/..` or `/.` at the
 * end), backends (a service by DNS-1035 name and a port by number or name, or a resource, not both),
 * TLS, ingressClassName.
 */
import fc from 'fast-check';
import { type KindGenerator, type Manifest, probe } from './case.js';
import { metadataProbes, validMetadata } from './metadata.js';
import { candidate } from './near-miss.js';
import { validString } from './strings.js';

const port = fc.oneof(
  fc.integer({ min: 1, max: 65535 }).map((number) => ({ number })),
  validString('portName').map((name) => ({ name })),
);
const serviceBackend = fc.record({ name: validString('dns1035Label'), port }).map((service) => ({ service }));
const resourceBackend = fc.constantFrom(
  { resource: { apiGroup: 'k8s.example.com', kind: 'StorageBucket', name: 'static-assets' } },
  { resource: { kind: 'ConfigMap', name: 'maintenance-page' } },
);
const backend = fc.oneof({ arbitrary: serviceBackend, weight: 5 }, { arbitrary: resourceBackend, weight: 1 });

const PATHS: Record<string, string[]> = {
  Prefix: ['/', '/api', '/v1/users', '/static/', '/a-b_c.d~e'],
  Exact: ['/', '/healthz', '/login', '/api/v2/orders'],
  ImplementationSpecific: ['/', '/api(/|$)(.*)', '/*', '', '/shop/.+'],
};
const httpPath = fc
  .tuple(fc.constantFrom('Prefix', 'Exact', 'ImplementationSpecific'), fc.nat(), backend)
  .map(([pathType, i, backend]) => ({ path: PATHS[pathType]![i % PATHS[pathType]!.length], pathType, backend }));

const host = fc.oneof(
  validString('dns1123Subdomain'),
  validString('dns1123Subdomain')
    .filter((h) => h.length <= 251)
    .map((h) => `*.${h}`),
);
const rule = fc.record({
  host: fc.option(host, { nil: undefined, freq: 4 }),
  http: fc.array(httpPath, { minLength: 1, maxLength: 3 }).map((paths) => ({ paths })),
});

const ingressSpec = fc
  .record({
    rules: fc.array(rule, { minLength: 0, maxLength: 2 }),
    defaultBackend: fc.option(serviceBackend, { nil: undefined, freq: 3 }),
    tls: fc.option(
      fc.array(
        fc.record({
          hosts: fc.array(host, { maxLength: 2 }),
          secretName: fc.option(validString('dns1123Subdomain'), { nil: undefined, freq: 5 }),
        }),
        { minLength: 1, maxLength: 2 },
      ),
      { nil: undefined, freq: 3 },
    ),
    ingressClassName: fc.option(fc.constantFrom('nginx', 'traefik', 'alb', 'internal.example.com'), { nil: undefined }),
  })
  .map((spec) =>
    spec.rules.length === 0 && spec.defaultBackend === undefined
      ? { ...spec, defaultBackend: { service: { name: 'web', port: { number: 80 } } } }
      : spec,
  );

const validIngress = fc.tuple(validMetadata({ nameRule: 'dns1123Subdomain', namespaced: true }), ingressSpec).map(([metadata, spec]) => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata,
  spec,
}));

/** Some HTTP path of the manifest, a rule made when there is none. */
function somePath(m: Manifest, i: number): Manifest {
  m.spec.rules ??= [];
  if (m.spec.rules.length === 0)
    m.spec.rules.push({
      http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] },
    });
  const paths: Manifest[] = m.spec.rules.flatMap((r: Manifest) => r.http?.paths ?? []);
  return paths[i % paths.length]!;
}

function someRule(m: Manifest, i: number): Manifest {
  somePath(m, 0);
  return m.spec.rules[i % m.spec.rules.length];
}

const BAD_PATHS = [
  'api',
  '',
  '//a',
  '/a//b',
  '/a/./b',
  '/a/../b',
  '/a%2fb',
  '/a%2Fb',
  '/a/..',
  '/a/.',
  '/..',
  '/.',
  '/a/',
  '/api(/|$)(.*)',
  '/ä',
  '/a b',
];
const HOSTS = [
  '*.example.com',
  '*',
  '*.*.example.com',
  'a.*.example.com',
  '*example.com',
  '1.2.3.4',
  '::1',
  '2001:db8::1',
  'example.com:80',
  'Example.com',
  'foo.bar.',
  '*.a',
];

export const ingress: KindGenerator = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  namespaced: true,
  valid: validIngress,
  probes: [
    ...metadataProbes({ nameRule: 'dns1123Subdomain', namespaced: true }),
    probe(
      'paths/path',
      fc.tuple(fc.constantFrom(...BAD_PATHS), fc.constantFrom('Prefix', 'Exact', 'ImplementationSpecific'), fc.nat()),
      (m, [path, pathType, i]) => Object.assign(somePath(m, i), { path, pathType }),
      5,
    ),
    probe('paths/path-missing', fc.tuple(fc.constantFrom('Prefix', 'Exact', 'ImplementationSpecific'), fc.nat()), (m, [pathType, i]) => {
      const p = somePath(m, i);
      delete p.path;
      p.pathType = pathType;
    }),
    probe(
      'paths/pathType',
      fc.tuple(fc.constantFrom('Prefix', 'Exact', 'ImplementationSpecific', 'prefix', 'Regex', ''), fc.nat()),
      (m, [pathType, i]) => (somePath(m, i).pathType = pathType),
      2,
    ),
    probe(
      'paths/host',
      fc.tuple(fc.oneof(candidate('dns1123Subdomain'), fc.constantFrom(...HOSTS)), fc.nat()),
      (m, [value, i]) => (someRule(m, i).host = value),
      4,
    ),
    probe(
      'paths/backend-service-name',
      fc.tuple(candidate('dns1035Label'), fc.nat()),
      (m, [name, i]) => (somePath(m, i).backend = { service: { name, port: { number: 80 } } }),
      2,
    ),
    probe(
      'paths/backend-port',
      fc.tuple(
        fc.oneof(
          fc.constantFrom({}, { number: 0 }, { number: 65536 }, { number: 65535 }, { name: '' }, { name: 'http', number: 80 }),
          candidate('portName').map((name) => ({ name })),
        ),
        fc.nat(),
      ),
      (m, [port, i]) => (somePath(m, i).backend = { service: { name: 'web', port } }),
      3,
    ),
    probe(
      'paths/backend-kind',
      fc.tuple(fc.constantFrom('both', 'neither', 'resource-no-kind', 'resource-bad-group', 'resource-slash', 'resource-core'), fc.nat()),
      (m, [how, i]) => {
        const service = { name: 'web', port: { number: 80 } };
        const resource = { apiGroup: 'k8s.example.com', kind: 'StorageBucket', name: 'assets' };
        somePath(m, i).backend = {
          both: { service, resource },
          neither: {},
          'resource-no-kind': { resource: { ...resource, kind: '' } },
          'resource-bad-group': { resource: { ...resource, apiGroup: 'K8s.Example' } },
          'resource-slash': { resource: { ...resource, name: 'a/b' } },
          'resource-core': { resource: { kind: 'Service', name: 'web' } },
        }[how];
      },
      2,
    ),
    probe(
      'paths/default-backend',
      fc.oneof(fc.constant(undefined), serviceBackend, resourceBackend, fc.constant({})),
      (m, defaultBackend) => {
        m.spec.defaultBackend = defaultBackend;
        delete m.spec.rules;
      },
      2,
    ),
    probe('paths/no-paths', fc.tuple(fc.boolean(), fc.nat()), (m, [empty, i]) => (someRule(m, i).http = empty ? { paths: [] } : undefined)),
    probe(
      'paths/tls',
      fc.tuple(fc.oneof(candidate('dns1123Subdomain'), fc.constantFrom(...HOSTS)), candidate('dns1123Subdomain')),
      (m, [host, secretName]) => (m.spec.tls = [{ hosts: [host], secretName }]),
      3,
    ),
    probe('spec/ingressClassName', candidate('dns1123Subdomain'), (m, name) => (m.spec.ingressClassName = name), 2),
    probe(
      'spec/ingress-class-annotation',
      fc.tuple(fc.constantFrom('nginx', 'traefik'), fc.constantFrom('nginx', undefined)),
      (m, [annotation, className]) => {
        (m.metadata.annotations ??= {})['kubernetes.io/ingress.class'] = annotation;
        m.spec.ingressClassName = className;
      },
    ),
    probe('decode/unknown-field', fc.constantFrom('backend', 'rule', 'class'), (m, field) => (m.spec[field] = {}), 0.5),
  ],
};
