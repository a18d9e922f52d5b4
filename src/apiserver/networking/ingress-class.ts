/** An IngressClass as the API server judges it (networking/validation ValidateIngressClass): the controller and the parameters' reference. */
import {
  type FieldError,
  FieldPath,
  forbidden,
  invalid,
  invalidEach,
  notSupported,
  required,
  tooLong,
} from '../apimachinery/field-error.js';
import { type Fields, copyOnWrite, isSet, object, string, number } from '../golang/values.js';
import type { KindRules } from '../registry/kind-rules.js';
import { isDNS1123Subdomain, nameIsDNSLabel, nameIsDNSSubdomain } from '../apimachinery/names.js';
import { validateCoreObjectMeta } from '../core/object-meta.js';
import { validateTypedReference } from './typed-reference.js';

const MAX_CONTROLLER_LENGTH = 250;
const SCOPES = ['Cluster', 'Namespace'];
const HTTP_PATH = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/;

function defaults(manifest: Fields): Fields {
  // PrepareForCreate sets the generation to 1; only a negative one would be judged otherwise.
  if (number(object(manifest.metadata).generation) < 0) copyOnWrite(manifest, 'metadata').generation = 1;
  if (isSet(object(manifest.spec).parameters) && !isSet(object(object(manifest.spec).parameters).scope))
    copyOnWrite(copyOnWrite(manifest, 'spec'), 'parameters').scope = 'Cluster';
  return manifest;
}

/** apimachinery's IsDomainPrefixedPath: `example.com/controller`. */
function validateDomainPrefixedPath(path: FieldPath, value: string): FieldError[] {
  if (value === '') return [required(path)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? '' : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host === '' || rest === '') return [invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errors = isDNS1123Subdomain(host).map((message) => invalid(path, host, message));
  if (!HTTP_PATH.test(rest))
    errors.push(invalid(path, rest, "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"));
  return errors;
}

function validateParameters(spec: Fields, path: FieldPath): FieldError[] {
  if (!isSet(spec.parameters)) return [];
  const parameters = object(spec.parameters);
  const errors = validateTypedReference(parameters, path);
  if (!isSet(parameters.scope)) return [...errors, required(path.child('scope'))];
  const scope = string(parameters.scope);
  if (!SCOPES.includes(scope)) errors.push(notSupported(path.child('scope'), scope, SCOPES));
  else if (scope === 'Namespace') {
    if (!isSet(parameters.namespace)) errors.push(required(path.child('namespace'), "`parameters.scope` is set to 'Namespace'"));
    else
      errors.push(
        ...invalidEach(path.child('namespace'), string(parameters.namespace), nameIsDNSLabel(string(parameters.namespace), false)),
      );
  } else if (isSet(parameters.namespace)) errors.push(forbidden(path.child('namespace'), "`parameters.scope` is set to 'Cluster'"));
  return errors;
}

function validate(manifest: Fields): FieldError[] {
  const errors = validateCoreObjectMeta(manifest.metadata, false, nameIsDNSSubdomain);
  const spec = object(manifest.spec);
  const controller = string(spec.controller);
  if (Buffer.byteLength(controller) > MAX_CONTROLLER_LENGTH)
    errors.push(tooLong(FieldPath.of('spec', 'controller'), MAX_CONTROLLER_LENGTH));
  errors.push(...validateDomainPrefixedPath(FieldPath.of('spec', 'controller'), controller));
  return [...errors, ...validateParameters(spec, FieldPath.of('spec', 'parameters'))];
}

export const ingressClassRules: KindRules = { namespaced: false, defaults, validate };
