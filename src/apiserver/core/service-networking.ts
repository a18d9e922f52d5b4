/**
 * A Service's addresses and traffic as the API server judges them (core/validation): cluster IPs
 * and IP families, external IPs, load balancer fields, and the traffic policies. Apart from
 * service.ts only to keep each file short.
 */
import {
  type FieldError,
  FieldPath,
  duplicate,
  forbidden,
  invalid,
  invalidEach,
  notSupported,
  required,
} from '../apimachinery/field-error.js';
import { type Fields, goTrimSpace, isSet, list, number, string, strings } from '../golang/values.js';
import { isDualStack, validateCidrLegacy, validateIPLegacy } from './ip-rules.js';
import { isIPv6String } from '../golang/ip.js';
import { isQualifiedName, isValidPortNum } from '../apimachinery/names.js';

const TRAFFIC_POLICIES = ['Cluster', 'Local'];
/** The types whose Services must have an internal traffic policy (SetDefaults_Service gives them one). */
export const INTERNAL_TRAFFIC_TYPES = ['NodePort', 'LoadBalancer', 'ClusterIP'];
const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const TRAFFIC_DISTRIBUTIONS = ['PreferClose'];
const spec = FieldPath.of('spec');

export const externallyAccessible = (s: Fields): boolean =>
  s.type === 'LoadBalancer' || s.type === 'NodePort' || (s.type === 'ClusterIP' && list(s.externalIPs).length > 0);
export const needsHealthCheck = (s: Fields): boolean => s.type === 'LoadBalancer' && s.externalTrafficPolicy === 'Local';
/** Specs whose clusterIPs the REST storage derived from clusterIP: their errors are the caller's clusterIP. */
const derivedClusterIPs = new WeakSet<Fields>();

/** clusterIPs follows clusterIP, as the REST storage makes it before validating whatever the cluster. */
export function deriveClusterIPs(s: Fields): void {
  if (string(s.clusterIP) === '' || list(s.clusterIPs).length > 0) return;
  s.clusterIPs = [s.clusterIP];
  derivedClusterIPs.add(s);
}

/** Go's path to clusterIPs (or its entry `index`), pointing at the clusterIP the caller wrote where clusterIPs was derived. */
export function clusterIPsPath(s: Fields, index?: number): FieldPath {
  const path = index === undefined ? spec.child('clusterIPs') : spec.child('clusterIPs').index(index);
  return derivedClusterIPs.has(s) ? path.locatedAt(spec.child('clusterIP')) : path;
}

export const isHeadless = (s: Fields): boolean => list(s.clusterIPs).length === 1 && list(s.clusterIPs)[0] === 'None';

/** ValidateServiceClusterIPsRelatedFields for a create; each check below adds to `errors` rather than making a list of its own. */
export function validateClusterIPs(errors: FieldError[], s: Fields): void {
  if (s.type === 'ExternalName') return;
  // Nothing below can fail without one of these (a clusterIP has been copied into clusterIPs by now).
  if (!Array.isArray(s.clusterIPs) && !Array.isArray(s.ipFamilies) && !isSet(s.ipFamilyPolicy)) return;
  const path = clusterIPsPath(s);
  const clusterIPs = strings(s.clusterIPs);
  const shown = clusterIPs;
  if (string(s.clusterIP) !== '') {
    if (clusterIPs.length === 0) errors.push(required(path));
    else if (clusterIPs[0] !== s.clusterIP) errors.push(invalid(path, shown, 'first value must match `clusterIP`'));
  } else if (clusterIPs.length !== 0) errors.push(invalid(path, shown, 'must be empty when `clusterIP` is not specified'));
  const families = strings(s.ipFamilies);
  const seenFamilies = new Set<string>();
  families.forEach((family, i) => {
    if (!IP_FAMILIES.includes(family)) errors.push(notSupported(spec.child('ipFamilies').index(i), family, IP_FAMILIES));
    if (seenFamilies.has(family)) errors.push(duplicate(spec.child('ipFamilies').index(i), family));
    seenFamilies.add(family);
  });
  if (isSet(s.ipFamilyPolicy) && !IP_FAMILY_POLICIES.includes(string(s.ipFamilyPolicy)))
    errors.push(notSupported(spec.child('ipFamilyPolicy'), string(s.ipFamilyPolicy), IP_FAMILY_POLICIES));
  let invalidIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (clusterIPs.length > 1) {
        invalidIPs = true;
        errors.push(invalid(path, shown, "'None' must be the first and only value"));
      }
      return;
    }
    const found = validateIPLegacy(clusterIPsPath(s, i), ip);
    invalidIPs ||= found.length > 0;
    errors.push(...found);
  });
  if (clusterIPs.length > 2) errors.push(invalid(path, shown, 'may only hold up to 2 values'));
  if (invalidIPs) return;
  if (clusterIPs.length > 1 && !isDualStack(clusterIPs))
    errors.push(invalid(path, shown, 'may specify no more than one IP for each IP family'));
  if (!isHeadless(s))
    clusterIPs.slice(0, families.length).forEach((ip, i) => {
      if (families[i] === 'IPv4' && isIPv6String(ip))
        errors.push(invalid(clusterIPsPath(s, i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && !isIPv6String(ip))
        errors.push(invalid(clusterIPsPath(s, i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
}

const SOURCE_RANGES_ANNOTATION = 'service.beta.kubernetes.io/load-balancer-source-ranges';

export function validateLoadBalancer(errors: FieldError[], s: Fields, annotations: Fields): void {
  const ranges = strings(s.loadBalancerSourceRanges);
  if (ranges.length > 0) {
    // Go's path spells the member with a capital L; the pointer names the manifest's member.
    const path = spec.childSpelled('LoadBalancerSourceRanges', 'loadBalancerSourceRanges');
    if (s.type !== 'LoadBalancer') errors.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((range, i) => errors.push(...validateCidrLegacy(path.index(i), goTrimSpace(range))));
  } else if (Object.hasOwn(annotations, SOURCE_RANGES_ANNOTATION)) {
    const path = FieldPath.of('metadata', 'annotations').key(SOURCE_RANGES_ANNOTATION);
    if (s.type !== 'LoadBalancer') errors.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    const value = goTrimSpace(string(annotations[SOURCE_RANGES_ANNOTATION]));
    if (value !== '') for (const range of value.split(',')) errors.push(...validateCidrLegacy(path, goTrimSpace(range)));
  }
  if (isSet(s.allocateLoadBalancerNodePorts) && s.type !== 'LoadBalancer')
    errors.push(forbidden(spec.child('allocateLoadBalancerNodePorts'), "may only be used when `type` is 'LoadBalancer'"));
  if (isSet(s.loadBalancerClass)) {
    const path = spec.child('loadBalancerClass');
    if (s.type === 'LoadBalancer')
      errors.push(...invalidEach(path, string(s.loadBalancerClass), isQualifiedName(string(s.loadBalancerClass))));
    else errors.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
  }
}

export function validateTrafficPolicies(errors: FieldError[], s: Fields): void {
  const external = string(s.externalTrafficPolicy);
  if (!externallyAccessible(s)) {
    if (external !== '')
      errors.push(invalid(spec.child('externalTrafficPolicy'), external, 'may only be set for externally-accessible services'));
  } else if (external === '') errors.push(required(spec.child('externalTrafficPolicy')));
  else if (!TRAFFIC_POLICIES.includes(external)) errors.push(notSupported(spec.child('externalTrafficPolicy'), external, TRAFFIC_POLICIES));
  const healthCheck = number(s.healthCheckNodePort);
  if (!needsHealthCheck(s)) {
    if (healthCheck !== 0)
      errors.push(
        invalid(
          spec.child('healthCheckNodePort'),
          healthCheck,
          "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        ),
      );
  } else errors.push(...invalidEach(spec.child('healthCheckNodePort'), healthCheck, isValidPortNum(healthCheck)));
  if (!isSet(s.internalTrafficPolicy) && INTERNAL_TRAFFIC_TYPES.includes(string(s.type)))
    errors.push(required(spec.child('internalTrafficPolicy')));
  if (isSet(s.internalTrafficPolicy) && !TRAFFIC_POLICIES.includes(string(s.internalTrafficPolicy)))
    errors.push(notSupported(spec.child('internalTrafficPolicy'), string(s.internalTrafficPolicy), TRAFFIC_POLICIES));
  if (isSet(s.trafficDistribution) && !TRAFFIC_DISTRIBUTIONS.includes(string(s.trafficDistribution)))
    errors.push(notSupported(spec.child('trafficDistribution'), string(s.trafficDistribution), TRAFFIC_DISTRIBUTIONS));
}
