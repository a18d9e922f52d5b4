/** A container's ports (core/validation validateContainerPorts) and host ports that collide (checkHostPortConflicts). */
import {
  type FieldError,
  type FieldPath,
  duplicate,
  invalid,
  invalidEach,
  notSupported,
  required,
} from '../../apimachinery/field-error.js';
import { isValidPortName, isValidPortNum, PORT_PROTOCOLS } from '../../apimachinery/names.js';
import { type Fields, list, number, object, string } from '../../golang/values.js';

function validateContainerPort(port: Fields, names: Set<string>, path: FieldPath, errors: FieldError[]): void {
  const name = string(port.name);
  if (name !== '') {
    const messages = isValidPortName(name);
    if (messages.length > 0) errors.push(...invalidEach(path.child('name'), name, messages));
    else if (names.has(name)) errors.push(duplicate(path.child('name'), name));
    else names.add(name);
  }
  const containerPort = number(port.containerPort);
  if (containerPort === 0) errors.push(required(path.child('containerPort')));
  else errors.push(...invalidEach(path.child('containerPort'), containerPort, isValidPortNum(containerPort)));
  const hostPort = number(port.hostPort);
  if (hostPort !== 0) errors.push(...invalidEach(path.child('hostPort'), hostPort, isValidPortNum(hostPort)));
  const protocol = string(port.protocol);
  if (protocol === '') errors.push(required(path.child('protocol')));
  else if (!PORT_PROTOCOLS.includes(protocol)) errors.push(notSupported(path.child('protocol'), protocol, PORT_PROTOCOLS));
}

/** validateContainerPorts: names unique within the container. */
export function validateContainerPorts(ports: unknown[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => validateContainerPort(object(port), names, path.index(i), errors));
  return errors;
}

/** AccumulateUniqueHostPorts: one protocol, host IP and host port taken once across `containers`. */
export function checkHostPortConflicts(containers: readonly Fields[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const taken = new Set<string>();
  containers.forEach((container, c) =>
    list(container.ports).forEach((entry, p) => {
      const port = object(entry);
      const hostPort = number(port.hostPort);
      if (hostPort === 0) return;
      const key = `${string(port.protocol)}/${string(port.hostIP)}/${hostPort}`;
      if (taken.has(key)) errors.push(duplicate(path.index(c).child('ports').index(p).child('hostPort'), key));
      else taken.add(key);
    }),
  );
  return errors;
}
