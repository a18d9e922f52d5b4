/**
 * A container's probes (core/validation validateLivenessProbe, validateReadinessProbe,
 * validateStartupProbe, validateProbe) and their handlers (validateHandler): exactly one handler,
 * and the numbers the kubelet can use. HTTP header names are not judged yet (IsHTTPHeaderName).
 */
import {
  type FieldError,
  type FieldPath,
  NONE,
  forbidden,
  invalid,
  invalidEach,
  notSupported,
  required,
} from '../../apimachinery/field-error.js';
import { isValidPortName, isValidPortNum } from '../../apimachinery/names.js';
import { type Fields, isSet, list, number, object, string } from '../../golang/values.js';

const IS_NEGATIVE = 'must be greater than or equal to 0';
const HTTP_SCHEMES = ['HTTP', 'HTTPS'];
/** The handlers of a ProbeHandler, in validateHandler's order (a lifecycle handler's sleep is not ported). */
const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;

/** ValidateNonnegativeField. */
export const validateNonnegativeField = (value: number, path: FieldPath): FieldError[] =>
  value < 0 ? [invalid(path, value, IS_NEGATIVE)] : NONE;

/** ValidatePortNumOrName: an int-or-string port. */
export function validatePortNumOrName(port: unknown, path: FieldPath): FieldError[] {
  if (typeof port === 'string') return invalidEach(path, port, isValidPortName(port));
  return invalidEach(path, number(port), isValidPortNum(number(port)));
}

function validateHTTPGetAction(action: Fields, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (string(action.path) === '') errors.push(required(path.child('path')));
  errors.push(...validatePortNumOrName(action.port, path.child('port')));
  const scheme = string(action.scheme);
  if (!HTTP_SCHEMES.includes(scheme)) errors.push(notSupported(path.child('scheme'), scheme, HTTP_SCHEMES));
  return errors;
}

function validateAction(handler: (typeof PROBE_HANDLERS)[number], action: Fields, path: FieldPath): FieldError[] {
  switch (handler) {
    case 'exec':
      return list(action.command).length === 0 ? [required(path.child('command'))] : NONE;
    case 'httpGet':
      return validateHTTPGetAction(action, path);
    case 'tcpSocket':
      return validatePortNumOrName(action.port, path.child('port'));
    case 'grpc':
      return validatePortNumOrName(number(action.port), path.child('port'));
  }
}

/** validateHandler for a probe's handler: the first set one is judged, each further one Forbidden. */
export function validateHandler(probe: Fields, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  let handlers = 0;
  for (const handler of PROBE_HANDLERS) {
    if (!isSet(probe[handler])) continue;
    if (handlers > 0) errors.push(forbidden(path.child(handler), 'may not specify more than 1 handler type'));
    else errors.push(...validateAction(handler, object(probe[handler]), path.child(handler)));
    handlers++;
  }
  if (handlers === 0) errors.push(required(path, 'must specify a handler type'));
  return errors;
}

/** validateProbe. */
export function validateProbe(probe: Fields, path: FieldPath): FieldError[] {
  const errors = validateHandler(probe, path);
  for (const member of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'])
    errors.push(...validateNonnegativeField(number(probe[member]), path.child(member)));
  if (isSet(probe.terminationGracePeriodSeconds) && number(probe.terminationGracePeriodSeconds) <= 0)
    errors.push(
      invalid(path.child('terminationGracePeriodSeconds'), number(probe.terminationGracePeriodSeconds), 'must be greater than 0'),
    );
  return errors;
}

/** validateLivenessProbe and validateStartupProbe: a probe that succeeds once. */
export function validateLivenessProbe(value: unknown, path: FieldPath): FieldError[] {
  if (!isSet(value)) return NONE;
  const probe = object(value);
  const errors = validateProbe(probe, path);
  if (number(probe.successThreshold) !== 1)
    errors.push(invalid(path.child('successThreshold'), number(probe.successThreshold), 'must be 1'));
  return errors;
}

export const validateStartupProbe = validateLivenessProbe;

/** validateReadinessProbe: no grace period of its own. */
export function validateReadinessProbe(value: unknown, path: FieldPath): FieldError[] {
  if (!isSet(value)) return NONE;
  const probe = object(value);
  const errors = validateProbe(probe, path);
  // Go prints the pointer: %v of an *int64 is its address, so the message shows no value to match.
  if (isSet(probe.terminationGracePeriodSeconds))
    errors.push(
      invalid(
        path.child('terminationGracePeriodSeconds'),
        number(probe.terminationGracePeriodSeconds),
        'must not be set for readinessProbes',
      ),
    );
  return errors;
}
