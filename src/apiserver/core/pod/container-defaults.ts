/**
 * The defaults the API server runs on a Pod's containers before validating them (pkg/apis/core/v1
 * defaults.go, in zz_generated.defaults.go's order for a container): SetDefaults_Container, its
 * ports' protocol, SetDefaults_Probe and SetDefaults_HTTPGetAction for each probe, and
 * SetDefaults_Pod's requests copied from limits. Validation reads the defaulted values: an absent
 * terminationMessagePolicy or imagePullPolicy is never Required once these have run.
 */
import { type Fields, copyOf, copyOnWrite, has, isSet, list, object, string } from '../../golang/values.js';

const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'];

/**
 * The tag parsers.ParseImageName finds: after the last ':' of the last path element, none with a
 * digest, and `latest` when neither is given. Only `latest` matters to the default, and an image
 * the parser refuses defaults to IfNotPresent as an untagged one with a digest does.
 */
function imageTag(image: string): string {
  if (image.includes('@')) return '';
  const lastElement = image.slice(image.lastIndexOf('/') + 1);
  const colon = lastElement.lastIndexOf(':');
  return colon < 0 ? 'latest' : lastElement.slice(colon + 1);
}

/** SetDefaults_Container. */
export function setDefaultsContainer(container: Fields): void {
  if (string(container.imagePullPolicy) === '')
    container.imagePullPolicy = imageTag(string(container.image)) === 'latest' ? 'Always' : 'IfNotPresent';
  if (string(container.terminationMessagePath) === '') container.terminationMessagePath = '/dev/termination-log';
  if (string(container.terminationMessagePolicy) === '') container.terminationMessagePolicy = 'File';
}

/** SetDefaults_Probe, then SetDefaults_HTTPGetAction of its handler. */
export function setDefaultsProbe(probe: Fields): void {
  if (!isSet(probe.timeoutSeconds) || probe.timeoutSeconds === 0) probe.timeoutSeconds = 1;
  if (!isSet(probe.periodSeconds) || probe.periodSeconds === 0) probe.periodSeconds = 10;
  if (!isSet(probe.successThreshold) || probe.successThreshold === 0) probe.successThreshold = 1;
  if (!isSet(probe.failureThreshold) || probe.failureThreshold === 0) probe.failureThreshold = 3;
  if (isSet(probe.httpGet)) setDefaultsHTTPGetAction(copyOnWrite(probe, 'httpGet'));
}

/** SetDefaults_HTTPGetAction. */
export function setDefaultsHTTPGetAction(action: Fields): void {
  if (string(action.path) === '') action.path = '/';
  if (string(action.scheme) === '') action.scheme = 'HTTP';
}

/** SetDefaults_Pod's part for one container: a limit with no request is also the request. */
function defaultRequestsToLimits(container: Fields): void {
  if (!isSet(object(container.resources).limits)) return;
  const resources = copyOnWrite(container, 'resources');
  const requests = copyOnWrite(resources, 'requests');
  for (const [name, quantity] of Object.entries(object(resources.limits))) if (!has(requests, name)) requests[name] = quantity;
}

/** A container with every default of a Pod's container run, on a copy. */
export function defaultedContainer(value: unknown): Fields {
  const container = copyOf(value);
  setDefaultsContainer(container);
  if (Array.isArray(container.ports))
    container.ports = container.ports.map((port) => Object.assign(copyOf(port), { protocol: string(object(port).protocol) || 'TCP' }));
  for (const probe of PROBES) if (isSet(container[probe])) setDefaultsProbe(copyOnWrite(container, probe));
  defaultRequestsToLimits(container);
  return container;
}

/** The containers and init containers of a Pod's spec defaulted, on a copy of the spec. */
export function setDefaultsPodContainers(spec: Fields): Fields {
  const copy = copyOf(spec);
  for (const member of ['containers', 'initContainers'])
    if (Array.isArray(copy[member])) copy[member] = list(copy[member]).map(defaultedContainer);
  return copy;
}
