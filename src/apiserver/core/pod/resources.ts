/**
 * A container's resources (core/validation ValidateContainerResourceRequirements,
 * validateContainerResourceName, ValidateResourceQuantityValue, with core/helper's resource name
 * predicates): names a container may ask for, quantities not negative, and each request within its
 * limit. Huge pages' sizes and resource claims are not judged yet.
 */
import {
  type FieldError,
  type FieldPath,
  GoSyntax,
  NONE,
  forbidden,
  invalid,
  invalidEach,
  required,
} from '../../apimachinery/field-error.js';
import { isQualifiedName } from '../../apimachinery/names.js';
import { asDec, type Quantity, parseQuantity, roundUp, sign } from '../../apimachinery/quantity.js';
import { compareQuantities } from '../../apimachinery/quantity-arithmetic.js';
import { quantityGoSyntax, quantityString } from '../../apimachinery/quantity-print.js';
import { object } from '../../golang/values.js';

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const INTEGER_RESOURCES = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);
const STANDARD_RESOURCES = new Set([
  ...STANDARD_CONTAINER_RESOURCES,
  ...['requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory', 'limits.ephemeral-storage'],
  ...INTEGER_RESOURCES,
  ...['storage', 'requests.storage'],
]);
const QOS_COMPUTE_RESOURCES = new Set(['cpu', 'memory']);

const isHugePageResourceName = (name: string): boolean => name.startsWith('hugepages-');
/** IsQuotaHugePageResourceName. */
const isQuotaHugePageResourceName = (name: string): boolean => name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');
/** IsNativeResource: unprefixed, or in the kubernetes.io/ namespace. */
export const isNativeResource = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');
/** IsExtendedResourceName. */
export const isExtendedResourceName = (name: string): boolean =>
  !isNativeResource(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;
/** IsOvercommitAllowed: a request may be below its limit. */
const isOvercommitAllowed = (name: string): boolean => isNativeResource(name) && !isHugePageResourceName(name);
const isIntegerResourceName = (name: string): boolean => INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);

/** A core.ResourceName, a named string type, which field.Error prints with %v: unquoted. */
const resourceName = (name: string): GoSyntax => new GoSyntax(name);

/** validateResourceName. */
function validateResourceName(name: string, path: FieldPath): FieldError[] {
  const errors = invalidEach(path, resourceName(name), isQualifiedName(name));
  if (errors.length > 0) return errors;
  if (!name.includes('/') && !STANDARD_RESOURCES.has(name) && !isQuotaHugePageResourceName(name))
    return [invalid(path, resourceName(name), 'must be a standard resource type or fully qualified')];
  return NONE;
}

/** validateContainerResourceName. */
export function validateContainerResourceName(name: string, path: FieldPath): FieldError[] {
  const errors = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePageResourceName(name))
      return [...errors, invalid(path, resourceName(name), 'must be a standard resource for containers')];
  } else if (!isNativeResource(name) && !isExtendedResourceName(name))
    return [...errors, invalid(path, resourceName(name), "doesn't follow extended resource name standard")];
  return errors;
}

/** Quantity.MilliValue() % 1000 == 0: MilliValue rounds up to milli units, so 1.0001 is not whole. */
function isWhole(quantity: Quantity): boolean {
  const milli = asDec(roundUp(quantity, -3));
  return milli.scale <= 0 || milli.unscaled % 10n ** BigInt(milli.scale) === 0n;
}

/** ValidateResourceQuantityValue. */
export function validateResourceQuantityValue(name: string, quantity: Quantity, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (sign(quantity) < 0) errors.push(invalid(path, quantityString(quantity), 'must be greater than or equal to 0'));
  if (isIntegerResourceName(name) && !isWhole(quantity))
    errors.push(invalid(path, new GoSyntax(quantityGoSyntax(quantity)), 'must be an integer'));
  return errors;
}

/** A ResourceList as decoded: quantities that do not parse are the decoder's to refuse, so they are skipped here. */
function resourceList(value: unknown): Array<[string, Quantity]> {
  const entries: Array<[string, Quantity]> = [];
  for (const [name, text] of Object.entries(object(value))) {
    const quantity = parseQuantity(text);
    if (quantity !== undefined) entries.push([name, quantity]);
  }
  return entries;
}

/** validateResourceRequirements with validateContainerResourceName (ValidateContainerResourceRequirements). */
export function validateContainerResourceRequirements(resources: unknown, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const limPath = path.child('limits');
  const reqPath = path.child('requests');
  const limits = new Map(resourceList(object(resources).limits));
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, quantity] of limits) {
    const itemPath = limPath.key(name);
    errors.push(...validateContainerResourceName(name, itemPath), ...validateResourceQuantityValue(name, quantity, itemPath));
    cpuOrMemory ||= QOS_COMPUTE_RESOURCES.has(name);
    hugePages ||= isHugePageResourceName(name);
  }
  for (const [name, quantity] of resourceList(object(resources).requests)) {
    const itemPath = reqPath.key(name);
    errors.push(...validateContainerResourceName(name, itemPath), ...validateResourceQuantityValue(name, quantity, itemPath));
    const limit = limits.get(name);
    if (limit !== undefined) {
      const order = compareQuantities(quantity, limit);
      if (order !== 0 && !isOvercommitAllowed(name))
        errors.push(invalid(reqPath, quantityString(quantity), `must be equal to ${name} limit of ${quantityString(limit)}`));
      else if (order > 0)
        errors.push(invalid(reqPath, quantityString(quantity), `must be less than or equal to ${name} limit of ${quantityString(limit)}`));
    } else if (!isOvercommitAllowed(name)) errors.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    cpuOrMemory ||= QOS_COMPUTE_RESOURCES.has(name);
    hugePages ||= isHugePageResourceName(name);
  }
  if (!cpuOrMemory && hugePages) errors.push(forbidden(path, 'HugePages require cpu or memory'));
  return errors;
}
