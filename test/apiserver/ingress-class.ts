/**
 * IngressClasses (networking/validation ValidateIngressClass): the controller (a domain-prefixed
 * path of at most 250 characters) and parameters (kind, name, apiGroup, scope and namespace).
 */
import fc from 'fast-check';
import { type KindGenerator, probe } from './case.js';
import { metadataProbes, validMetadata } from './metadata.js';
import { candidate } from './near-miss.js';

const CONTROLLERS = [
  'k8s.io/ingress-nginx',
  'example.com/ingress-controller',
  'ingress.k8s.aws/alb',
  'traefik.io/ingress-controller',
  'acme.io/a/b~c',
];
const parameters = fc.oneof(
  fc.constantFrom(
    { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external-lb' },
    { kind: 'ConfigMap', name: 'nginx-config', scope: 'Cluster' },
  ),
  fc
    .constantFrom('default', 'ingress-nginx')
    .map((namespace) => ({ apiGroup: 'elbv2.k8s.aws', kind: 'IngressClassParams', name: 'alb', scope: 'Namespace', namespace })),
);
const validIngressClass = fc
  .tuple(
    validMetadata({ nameRule: 'dns1123Subdomain', namespaced: false }),
    fc.constantFrom(...CONTROLLERS),
    fc.option(parameters, { nil: undefined }),
    fc.boolean(),
  )
  .map(([metadata, controller, params, isDefault]) => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    metadata: isDefault
      ? { ...metadata, annotations: { ...metadata.annotations, 'ingressclass.kubernetes.io/is-default-class': 'true' } }
      : metadata,
    spec: { controller, ...(params === undefined ? {} : { parameters: params }) },
  }));

/** A domain-prefixed path of exactly `length` characters. */
const controllerOf = (length: number) => `example.com/${'c'.repeat(length - 'example.com/'.length)}`;
const CONTROLLER_MISSES = [
  '',
  'nginx',
  'K8s.io/nginx',
  'k8s.io/',
  '/nginx',
  'k8s_io/nginx',
  'k8s.io/a b',
  'k8s.io/a"b',
  'k8s.io//x',
  'k8s.io/a?b',
  controllerOf(250),
  controllerOf(251),
];

export const ingressClass: KindGenerator = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'IngressClass',
  namespaced: false,
  valid: validIngressClass,
  probes: [
    ...metadataProbes({ nameRule: 'dns1123Subdomain', namespaced: false }),
    probe(
      'class/controller',
      fc.oneof(
        fc.constantFrom(...CONTROLLER_MISSES),
        fc.tuple(candidate('dns1123Subdomain'), fc.constantFrom('x', 'ingress-controller')).map(([d, p]) => `${d}/${p}`),
      ),
      (m, controller) => (m.spec.controller = controller),
      5,
    ),
    probe('class/controller-missing', fc.constant(null), (m) => delete m.spec.controller),
    // One field of valid parameters changed: scope and namespace go together (Namespace needs one, Cluster forbids it).
    probe(
      'class/parameters',
      fc.tuple(
        parameters,
        fc.oneof(
          fc.record({ apiGroup: fc.oneof(candidate('dns1123Subdomain'), fc.constant(undefined)) }),
          fc.record({ kind: fc.constantFrom('IngressParameters', '', 'a/b', 'a%b', '..', '.', 'Ingress Params') }),
          fc.record({ name: fc.constantFrom('external-lb', '', '.', '..', 'a/b', 'UPPER_case', 'x%y') }),
          fc.record({
            scope: fc.constantFrom(undefined, 'Cluster', 'Namespace', 'cluster', ''),
            namespace: fc.constantFrom(undefined, 'default'),
          }),
          fc.record({ scope: fc.constant('Namespace'), namespace: candidate('dns1123Label') }),
        ),
      ),
      (m, [params, change]) => (m.spec.parameters = { ...params, ...change }),
      6,
    ),
  ],
};
