/**
 * An Ingress as the API server judges it on create (networking/validation ValidateIngressCreate):
 * rules or a default backend, hosts as DNS names (wildcards allowed), paths absolute for Exact and
 * Prefix, one backend each, TLS hosts and secret names, the class.
 */
import { type FieldError, FieldPath, GoSyntax, invalid, invalidEach, notSupported, required } from '../apimachinery/field-error.js';
import { type Fields, isSet, list, number, object, string, strings, copyOnWrite } from '../golang/values.js';
import { parseIPSloppy } from '../golang/ip.js';
import type { KindRules } from '../registry/kind-rules.js';
import {
  isDNS1123Subdomain,
  isValidPortName,
  isValidPortNum,
  isWildcardDNS1123Subdomain,
  nameIsDNS1035Label,
  nameIsDNSSubdomain,
} from '../apimachinery/names.js';
import { validateCoreObjectMeta } from '../core/object-meta.js';
import { validateTypedReference } from './typed-reference.js';

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_SUFFIXES = ['/..', '/.'];
const CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

const hostMessages = (host: string): string[] => (host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host));

function validateBackend(backend: Fields, path: FieldPath): FieldError[] {
  const hasResource = isSet(backend.resource);
  const hasService = isSet(backend.service);
  if (hasResource && hasService) return [invalid(path, '', 'cannot set both resource and service backends')];
  if (hasResource) return validateTypedReference(object(backend.resource), path.child('resource'));
  if (!hasService) return [invalid(path, '', 'resource or service backend is required')];
  const service = object(backend.service);
  const errors: FieldError[] = [];
  const name = string(service.name);
  if (name === '') errors.push(required(path.child('service', 'name')));
  else errors.push(...invalidEach(path.child('service', 'name'), name, nameIsDNS1035Label(name, false)));
  const port = object(service.port);
  const portName = string(port.name);
  const portNumber = number(port.number);
  if (portName !== '' && portNumber !== 0) errors.push(invalid(path, '', 'cannot set both port name & port number'));
  else if (portName !== '') errors.push(...invalidEach(path.child('service', 'port', 'name'), portName, isValidPortName(portName)));
  else if (portNumber !== 0) errors.push(...invalidEach(path.child('service', 'port', 'number'), portNumber, isValidPortNum(portNumber)));
  else errors.push(required(path, 'port name or number is required'));
  return errors;
}

function validateHTTPPath(entry: Fields, path: FieldPath): FieldError[] {
  if (!isSet(entry.pathType)) return [required(path.child('pathType'), 'pathType must be specified')];
  const errors: FieldError[] = [];
  const text = string(entry.path);
  const at = path.child('path');
  const pathType = string(entry.pathType);
  if (pathType === 'Exact' || pathType === 'Prefix') {
    if (!text.startsWith('/')) errors.push(invalid(at, text, 'must be an absolute path'));
    for (const sequence of INVALID_SEQUENCES) if (text.includes(sequence)) errors.push(invalid(at, text, `must not contain '${sequence}'`));
    for (const suffix of INVALID_SUFFIXES) if (text.endsWith(suffix)) errors.push(invalid(at, text, `cannot end with '${suffix}'`));
  } else if (pathType === 'ImplementationSpecific') {
    if (text.length > 0 && !text.startsWith('/')) errors.push(invalid(at, text, 'must be an absolute path'));
  } else errors.push(notSupported(path.child('pathType'), pathType, PATH_TYPES));
  return [...errors, ...validateBackend(object(entry.backend), path.child('backend'))];
}

function validateRules(rules: unknown[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  rules.forEach((entry, i) => {
    const rule = object(entry);
    const host = string(rule.host);
    if (host.length > 0) {
      if (parseIPSloppy(host) !== undefined)
        errors.push(invalid(path.index(i).child('host'), host, 'must be a DNS name, not an IP address'));
      errors.push(...invalidEach(path.index(i).child('host'), host, hostMessages(host)));
    }
    if (!isSet(rule.http)) return;
    const paths = list(object(rule.http).paths);
    const at = path.index(i).child('http', 'paths');
    if (paths.length === 0) errors.push(required(at));
    paths.forEach((entry, j) => errors.push(...validateHTTPPath(object(entry), at.index(j))));
  });
  return errors;
}

function validateTLS(tls: unknown[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  tls.forEach((entry, i) => {
    const item = object(entry);
    strings(item.hosts).forEach((host, j) => errors.push(...invalidEach(path.index(i).child('hosts').index(j), host, hostMessages(host))));
    const secretName = string(item.secretName);
    if (secretName !== '')
      errors.push(...invalidEach(path.index(i).child('secretName'), secretName, nameIsDNSSubdomain(secretName, false)));
  });
  return errors;
}

function validate(manifest: Fields): FieldError[] {
  const errors = validateCoreObjectMeta(manifest.metadata, true, nameIsDNSSubdomain);
  const spec = object(manifest.spec);
  const path = FieldPath.of('spec');
  const rules = list(spec.rules);
  if (rules.length === 0 && !isSet(spec.defaultBackend))
    errors.push(
      invalid(
        path,
        new GoSyntax(`[]networking.IngressRule${isSet(spec.rules) ? '{}' : '(nil)'}`),
        'either `defaultBackend` or `rules` must be specified',
      ),
    );
  if (isSet(spec.defaultBackend)) errors.push(...validateBackend(object(spec.defaultBackend), path.child('defaultBackend')));
  errors.push(...validateRules(rules, path.child('rules')), ...validateTLS(list(spec.tls), path.child('tls')));
  if (isSet(spec.ingressClassName))
    errors.push(
      ...invalidEach(
        path.child('ingressClassName'),
        string(spec.ingressClassName),
        nameIsDNSSubdomain(string(spec.ingressClassName), false),
      ),
    );
  const annotations = object(object(manifest.metadata).annotations);
  if (
    Object.hasOwn(annotations, CLASS_ANNOTATION) &&
    isSet(spec.ingressClassName) &&
    annotations[CLASS_ANNOTATION] !== spec.ingressClassName
  )
    errors.push(
      invalid(
        FieldPath.of('annotations', CLASS_ANNOTATION).locatedAt(FieldPath.of('metadata', 'annotations').key(CLASS_ANNOTATION)),
        string(annotations[CLASS_ANNOTATION]),
        'must match `ingressClassName` when both are specified',
      ),
    );
  return errors;
}

/** PrepareForCreate sets the generation; a negative one in the manifest never reaches validation. */
function defaults(manifest: Fields): Fields {
  // PrepareForCreate sets the generation to 1; only a negative one would be judged otherwise.
  if (number(object(manifest.metadata).generation) < 0) copyOnWrite(manifest, 'metadata').generation = 1;
  return manifest;
}

export const ingressRules: KindRules = { namespaced: true, defaults, validate };
