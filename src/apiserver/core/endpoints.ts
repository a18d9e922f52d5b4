/** Endpoints as the API server judges them (core/validation ValidateEndpoints): subsets, addresses, ports. */
import { type FieldError, FieldPath, invalidEach, notSupported, required } from '../apimachinery/field-error.js';
import { type Fields, copyOf, isSet, list, number, object, string } from '../golang/values.js';
import { validateEndpointIP, validateIPLegacy } from './ip-rules.js';
import type { KindRules } from '../registry/kind-rules.js';
import { isDNS1123Label, isQualifiedName, isValidPortNum, nameIsDNSSubdomain, PORT_PROTOCOLS } from '../apimachinery/names.js';
import { validateCoreObjectMeta } from './object-meta.js';

function defaults(manifest: Fields): Fields {
  if (Array.isArray(manifest.subsets))
    manifest.subsets = manifest.subsets.map((subset) => {
      const copy = copyOf(subset);
      if (Array.isArray(copy.ports))
        copy.ports = copy.ports.map((port) => Object.assign(copyOf(port), { protocol: string(object(port).protocol) || 'TCP' }));
      return copy;
    });
  return manifest;
}

function validateAddress(address: Fields, path: FieldPath): FieldError[] {
  const ip = string(address.ip);
  const errors = validateIPLegacy(path.child('ip'), ip);
  const hostname = string(address.hostname);
  if (hostname !== '') errors.push(...invalidEach(path.child('hostname'), hostname, isDNS1123Label(hostname)));
  if (isSet(address.nodeName))
    errors.push(...invalidEach(path.child('nodeName'), string(address.nodeName), nameIsDNSSubdomain(string(address.nodeName), false)));
  return [...errors, ...validateEndpointIP(path.child('ip'), ip)];
}

function validatePort(port: Fields, requireName: boolean, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const name = string(port.name);
  if (requireName && name === '') errors.push(required(path.child('name')));
  else if (name !== '') errors.push(...invalidEach(path.child('name'), name, isDNS1123Label(name)));
  errors.push(...invalidEach(path.child('port'), number(port.port), isValidPortNum(number(port.port))));
  const protocol = string(port.protocol);
  if (protocol === '') errors.push(required(path.child('protocol')));
  else if (!PORT_PROTOCOLS.includes(protocol)) errors.push(notSupported(path.child('protocol'), protocol, PORT_PROTOCOLS));
  if (isSet(port.appProtocol))
    errors.push(...invalidEach(path.child('appProtocol'), string(port.appProtocol), isQualifiedName(string(port.appProtocol))));
  return errors;
}

function validate(manifest: Fields): FieldError[] {
  const errors = validateCoreObjectMeta(manifest.metadata, true, nameIsDNSSubdomain);
  list(manifest.subsets).forEach((entry, i) => {
    const subset = object(entry);
    const path = FieldPath.of('subsets').index(i);
    const addresses = list(subset.addresses);
    const notReady = list(subset.notReadyAddresses);
    if (addresses.length === 0 && notReady.length === 0) errors.push(required(path, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((address, j) => errors.push(...validateAddress(object(address), path.child('addresses').index(j))));
    notReady.forEach((address, j) => errors.push(...validateAddress(object(address), path.child('notReadyAddresses').index(j))));
    const ports = list(subset.ports);
    ports.forEach((port, j) => errors.push(...validatePort(object(port), ports.length > 1, path.child('ports').index(j))));
  });
  return errors;
}

export const endpointsRules: KindRules = { namespaced: true, defaults, validate };
