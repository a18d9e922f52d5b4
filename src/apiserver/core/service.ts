/**
 * A Service as the API server judges it on create (core/validation ValidateService): the defaults
 * of SetDefaults_Service, the clusterIPs the REST storage derives from clusterIP, then the rules
 * of ports, types, session affinity, IP fields and traffic policies.
 */
import {
  type FieldError,
  FieldPath,
  GoSyntax,
  duplicate,
  forbidden,
  invalid,
  invalidEach,
  notSupported,
  required,
} from '../apimachinery/field-error.js';
import { type Fields, copyOf, copyOnWrite, isSet, list, number, object, string, strings } from '../golang/values.js';
import { validateEndpointIP, validateIPLegacy } from './ip-rules.js';
import type { KindRules } from '../registry/kind-rules.js';
import {
  INTERNAL_TRAFFIC_TYPES,
  clusterIPsPath,
  deriveClusterIPs,
  externallyAccessible,
  isHeadless,
  needsHealthCheck,
  validateClusterIPs,
  validateLoadBalancer,
  validateTrafficPolicies,
} from './service-networking.js';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidPortName,
  isValidPortNum,
  nameIsDNS1035Label,
  PORT_PROTOCOLS,
} from '../apimachinery/names.js';
import { append, validateLabels } from '../apimachinery/object-meta.js';
import { validateCoreObjectMeta } from './object-meta.js';

const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const AFFINITIES = ['ClientIP', 'None'];
const MAX_AFFINITY_SECONDS = 86400;
const spec = FieldPath.of('spec');

function defaults(manifest: Fields): Fields {
  const s = copyOnWrite(manifest, 'spec');
  if (string(s.sessionAffinity) === '') s.sessionAffinity = 'None';
  // Unset by assignment: a delete would turn the copy into a slow dictionary-mode object.
  if (s.sessionAffinity === 'None') s.sessionAffinityConfig = undefined;
  if (s.sessionAffinity === 'ClientIP' && !isSet(object(object(s.sessionAffinityConfig).clientIP).timeoutSeconds))
    s.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  if (string(s.type) === '') s.type = 'ClusterIP';
  if (Array.isArray(s.ports))
    s.ports = s.ports.map((entry) => {
      const given = object(entry);
      // A port with nothing to default is judged as sent, uncopied.
      if (string(given.protocol) !== '' && isSet(given.targetPort) && given.targetPort !== 0 && given.targetPort !== '') return given;
      const port = copyOf(entry);
      if (string(port.protocol) === '') port.protocol = 'TCP';
      if (port.targetPort === undefined || port.targetPort === null || port.targetPort === 0 || port.targetPort === '')
        port.targetPort = number(port.port);
      return port;
    });
  if (externallyAccessible(s) && string(s.externalTrafficPolicy) === '') s.externalTrafficPolicy = 'Cluster';
  if (!isSet(s.internalTrafficPolicy) && INTERNAL_TRAFFIC_TYPES.includes(string(s.type))) s.internalTrafficPolicy = 'Cluster';
  if (s.type === 'LoadBalancer' && !isSet(s.allocateLoadBalancerNodePorts)) s.allocateLoadBalancerNodePorts = true;
  // The REST storage, before validating, whatever the cluster: clusterIPs follows clusterIP, and
  // the allocator gives a health-check node port to a Service that needs one.
  deriveClusterIPs(s);
  if (needsHealthCheck(s) && number(s.healthCheckNodePort) === 0) s.healthCheckNodePort = 30000;
  return manifest;
}

/** How Go prints the key of a duplicate port: a core.ServicePort holding only protocol and port. */
const portKey = (protocol: string, port: number): GoSyntax =>
  new GoSyntax(
    `core.ServicePort{Name:"", Protocol:"${protocol}", AppProtocol:(*string)(nil), Port:${port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`,
  );

/** One port's rules, added to `errors`; a port's path is made only for an error. */
function validatePort(errors: FieldError[], port: Fields, requireName: boolean, names: Set<string>, at: () => FieldPath): void {
  const name = string(port.name);
  if (requireName && name === '') errors.push(required(at().child('name')));
  else if (name !== '') {
    const messages = isDNS1123Label(name);
    if (messages.length > 0) append(errors, invalidEach(at().child('name'), name, messages));
    if (names.has(name)) errors.push(duplicate(at().child('name'), name));
    else names.add(name);
  }
  const portNumber = number(port.port);
  if (portNumber < 1 || portNumber > 65535) append(errors, invalidEach(at().child('port'), portNumber, isValidPortNum(portNumber)));
  const protocol = string(port.protocol);
  if (protocol === '') errors.push(required(at().child('protocol')));
  else if (!PORT_PROTOCOLS.includes(protocol)) errors.push(notSupported(at().child('protocol'), protocol, PORT_PROTOCOLS));
  const target = port.targetPort;
  const targetMessages = typeof target === 'string' ? isValidPortName(target) : isValidPortNum(number(target));
  if (targetMessages.length > 0)
    append(errors, invalidEach(at().child('targetPort'), typeof target === 'string' ? target : number(target), targetMessages));
  if (isSet(port.appProtocol)) {
    const messages = isQualifiedName(string(port.appProtocol));
    if (messages.length > 0) append(errors, invalidEach(at().child('appProtocol'), string(port.appProtocol), messages));
  }
}

function validateTypeRules(errors: FieldError[], s: Fields): void {
  const clusterIPs = strings(s.clusterIPs);
  if ((s.type === 'LoadBalancer' || s.type === 'NodePort') && isHeadless(s))
    errors.push(invalid(clusterIPsPath(s, 0), clusterIPs[0], `may not be set to 'None' for ${string(s.type)} services`));
  if (s.type === 'ExternalName') {
    if (clusterIPs.length > 0) errors.push(forbidden(clusterIPsPath(s), 'may not be set for ExternalName services'));
    if (list(s.ipFamilies).length > 0) errors.push(forbidden(spec.child('ipFamilies'), 'may not be set for ExternalName services'));
    if (isSet(s.ipFamilyPolicy)) errors.push(forbidden(spec.child('ipFamilyPolicy'), 'may not be set for ExternalName services'));
    const cname = string(s.externalName).replace(/\.$/, '');
    if (cname !== '') errors.push(...invalidEach(spec.child('externalName'), cname, isDNS1123Subdomain(cname)));
    else errors.push(required(spec.child('externalName')));
  }
}

function validateAffinity(errors: FieldError[], s: Fields): void {
  const affinity = string(s.sessionAffinity);
  const path = spec.child('sessionAffinityConfig');
  const when = 'when session affinity type is ClientIP';
  const clientIP = object(s.sessionAffinityConfig).clientIP;
  const timeout = object(clientIP).timeoutSeconds;
  if (affinity === '') errors.push(required(spec.child('sessionAffinity')));
  else if (!AFFINITIES.includes(affinity)) errors.push(notSupported(spec.child('sessionAffinity'), affinity, AFFINITIES));
  else if (affinity === 'None') {
    if (isSet(s.sessionAffinityConfig)) errors.push(forbidden(path, 'must not be set when session affinity is None'));
  } else if (!isSet(s.sessionAffinityConfig)) errors.push(required(path, when));
  else if (!isSet(clientIP)) errors.push(required(path.child('clientIP'), when));
  else if (!isSet(timeout)) errors.push(required(path.child('clientIP', 'timeoutSeconds'), when));
  else if (number(timeout) <= 0 || number(timeout) > MAX_AFFINITY_SECONDS)
    errors.push(
      invalid(path.child('clientIP', 'timeoutSeconds'), number(timeout), `must be greater than 0 and less than ${MAX_AFFINITY_SECONDS}`),
    );
}

function validatePorts(errors: FieldError[], ports: readonly Fields[]): void {
  const names = new Set<string>();
  for (let i = 0; i < ports.length; i++) validatePort(errors, ports[i]!, ports.length > 1, names, () => spec.child('ports').index(i));
}

/** Go's map key of a port in the duplicate checks: a core.ServicePort holding only protocol and `member` (port or nodePort). */
const portSetKey = (port: Fields, member: 'port' | 'nodePort'): string => `${string(port.protocol)}/${number(port[member])}`;

function validatePortSets(errors: FieldError[], s: Fields, ports: readonly Fields[]): void {
  for (let i = 0; i < ports.length; i++) {
    const port = ports[i]!;
    if (number(port.nodePort) !== 0) {
      if (s.type === 'ClusterIP')
        errors.push(forbidden(spec.child('ports').index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
    }
  }
  // Keyed sets, as Go's maps: linear in the ports (the search among earlier ports took seconds for 26,666).
  const nodePorts = new Set<string>();
  for (let i = 0; i < ports.length; i++) {
    if (number(ports[i]!.nodePort) === 0) continue;
    const key = portSetKey(ports[i]!, 'nodePort');
    if (nodePorts.has(key)) errors.push(duplicate(spec.child('ports').index(i).child('nodePort'), number(ports[i]!.nodePort)));
    nodePorts.add(key);
  }
  const seen = new Set<string>();
  for (let i = 0; i < ports.length; i++) {
    const key = portSetKey(ports[i]!, 'port');
    if (seen.has(key)) errors.push(duplicate(spec.child('ports').index(i), portKey(string(ports[i]!.protocol), number(ports[i]!.port))));
    seen.add(key);
  }
}

const TOPOLOGY_HINTS = 'service.kubernetes.io/topology-aware-hints';
const TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode';

function validate(manifest: Fields): FieldError[] {
  const metadata = object(manifest.metadata);
  const annotations = object(metadata.annotations);
  const s = object(manifest.spec);
  const errors = validateCoreObjectMeta(metadata, true, nameIsDNS1035Label);
  if (
    Object.hasOwn(annotations, TOPOLOGY_MODE) &&
    Object.hasOwn(annotations, TOPOLOGY_HINTS) &&
    annotations[TOPOLOGY_MODE] !== annotations[TOPOLOGY_HINTS]
  )
    errors.push(
      invalid(
        FieldPath.of('metadata', 'annotations').key(TOPOLOGY_MODE),
        string(annotations[TOPOLOGY_MODE]),
        `must match annotations[${TOPOLOGY_HINTS}] when both are specified`,
      ),
    );
  const ports = list(s.ports).map(object);
  if (ports.length === 0 && !isHeadless(s) && s.type !== 'ExternalName') errors.push(required(spec.child('ports')));
  validateTypeRules(errors, s);
  validatePorts(errors, ports);
  if (isSet(s.selector)) append(errors, validateLabels(s.selector, spec.child('selector')));
  validateAffinity(errors, s);
  validateClusterIPs(errors, s);
  if (Array.isArray(s.externalIPs))
    strings(s.externalIPs).forEach((ip, i) => {
      const path = spec.child('externalIPs').index(i);
      const found = validateIPLegacy(path, ip);
      append(errors, found.length > 0 ? found : validateEndpointIP(path, ip));
    });
  const type = string(s.type);
  if (type === '') errors.push(required(spec.child('type')));
  else if (!TYPES.includes(type)) errors.push(notSupported(spec.child('type'), type, TYPES));
  validatePortSets(errors, s, ports);
  validateLoadBalancer(errors, s, annotations);
  validateTrafficPolicies(errors, s);
  return errors;
}

export const serviceRules: KindRules = { namespaced: true, defaults, validate };
