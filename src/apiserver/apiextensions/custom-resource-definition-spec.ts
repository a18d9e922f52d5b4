/**
 * validateCustomResourceDefinitionSpec with the create options of ValidateCustomResourceDefinition,
 * on the internal spec: group, scope, the schema every version needs, preserveUnknownFields with
 * defaults, each version, storage and unique names, the names, the members moved up from alike
 * versions, and conversion. In Go's order, which is the order of the API server's causes.
 */
import { type FieldError, type FieldPath, invalid, notSupported, required } from '../apimachinery/field-error.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../apimachinery/names.js';
import { isPlainObject } from '../../util/json.js';
import { validateConversion } from './custom-resource-definition-conversion.js';
import { goVersions } from './custom-resource-definition-gosyntax.js';
import { type InternalSpec, type InternalVersion, pointer } from './custom-resource-definition-internal.js';
import { requiredNames, validateNames } from './custom-resource-definition-names.js';
import { validateSelectableFields } from './custom-resource-definition-selectable.js';
import {
  hasStatusEnabled,
  validateColumns,
  validateSubresources,
  validateValidation,
  validateVersion,
} from './custom-resource-definition-versions.js';

export function validateSpec(spec: InternalSpec, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (spec.group === '') errors.push(required(path.child('group')));
  else {
    const messages = isDNS1123Subdomain(spec.group);
    if (messages.length > 0) errors.push(invalid(path.child('group'), spec.group, messages.join(',')));
    else if (spec.group.split('.').length < 2)
      errors.push(invalid(path.child('group'), spec.group, 'should be a domain with at least one dot'));
  }
  if (spec.scope === '') errors.push(required(path.child('scope')));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced')
    errors.push(notSupported(path.child('scope'), spec.scope, ['Cluster', 'Namespaced']));

  // v1 requires a schema in every version, unless the schema moved up to spec.validation.
  if (pointer(spec.validation?.openAPIV3Schema) === undefined) {
    spec.versions.forEach((version, i) => {
      if (pointer(version.schema?.openAPIV3Schema) === undefined)
        errors.push(required(path.child('versions').index(i).child('schema', 'openAPIV3Schema'), 'schemas are required'));
    });
  }
  if (spec.preserveUnknownFields && specHasDefaults(spec))
    errors.push(invalid(path.child('preserveUnknownFields'), true, 'must be false in order to use defaults in the schema'));

  let storageVersions = 0;
  const names = new Set<string>();
  let uniqueNames = true;
  const hasPerVersionSubresources = spec.versions.some((version) => version.subresources !== undefined);
  // getSubresourcesForVersion: the first version of that name's once any version has some, else the spec's.
  const firstOfName = new Map<string, (typeof spec.versions)[number]>();
  for (const version of spec.versions) if (!firstOfName.has(version.name)) firstOfName.set(version.name, version);
  spec.versions.forEach((version, i) => {
    const at = path.child('versions').index(i);
    if (version.storage) storageVersions++;
    if (names.has(version.name)) uniqueNames = false;
    else names.add(version.name);
    const messages = isDNS1035Label(version.name);
    if (messages.length > 0) errors.push(invalid(at.child('name'), version.name, messages.join(',')));
    const subresources = hasPerVersionSubresources ? firstOfName.get(version.name)?.subresources : spec.subresources;
    errors.push(...validateVersion(version, at, hasStatusEnabled(subresources)));
  });
  // The conversion clears per-version members it moved up, and moves up only alike ones: the
  // mutual-exclusion and "identical per-version" rules of the spec never fire for a v1 object.
  if (!uniqueNames)
    errors.push(invalid(path.child('versions'), goVersions(spec.versions, spec.versionsSet), 'must contain unique version names'));
  if (storageVersions !== 1)
    errors.push(
      invalid(
        path.child('versions'),
        goVersions(spec.versions, spec.versionsSet),
        'must have exactly one version marked as storage version',
      ),
    );
  // spec.version is versions[0]'s name, so a bad first name is reported twice.
  if (spec.version !== '') {
    const messages = isDNS1035Label(spec.version);
    if (messages.length > 0) errors.push(invalid(path.child('version'), spec.version, messages.join(',')));
  }

  errors.push(...requiredNames(spec.names, path.child('names')));
  errors.push(...validateNames(spec.names, path.child('names')));
  const anyStatus = hasStatusEnabled(spec.subresources) || spec.versions.some((version) => hasStatusEnabled(version.subresources));
  errors.push(...validateValidation(spec.validation, anyStatus, path.child('validation')));
  errors.push(...validateSubresources(spec.subresources, path.child('subresources')));
  errors.push(...validateColumns(spec.additionalPrinterColumns, path.child('additionalPrinterColumns')));
  if (spec.selectableFields.length > 0) {
    if (spec.validation === undefined)
      errors.push(invalid(path.child('selectableFields'), '', 'selectableFields may only be set when validations.schema is included'));
    else errors.push(...validateSelectableFields(spec.selectableFields, pointer(spec.validation.openAPIV3Schema), path));
  }
  const conversion = spec.conversion;
  if (conversion !== undefined && conversion.strategy !== 'None' && spec.preserveUnknownFields)
    errors.push(invalid(path.child('conversion', 'strategy'), conversion.strategy, 'must be None if spec.preserveUnknownFields is true'));
  errors.push(...validateConversion(conversion, path.child('conversion')));
  return errors;
}

/** Whether any schema, at any depth SchemaHas walks, has a default. */
function specHasDefaults(spec: InternalSpec): boolean {
  const schemas = [spec.validation, ...spec.versions.map((version: InternalVersion) => version.schema)].map((validation) =>
    pointer(validation?.openAPIV3Schema),
  );
  return schemas.some((schema) => schema !== undefined && schemaHas(schema, (node) => node.default !== undefined && node.default !== null));
}

function schemaHas(node: Record<string, unknown>, predicate: (node: Record<string, unknown>) => boolean): boolean {
  if (predicate(node)) return true;
  const children: unknown[] = [];
  const items = node.items;
  if (Array.isArray(items)) children.push(...items);
  else children.push(items);
  for (const member of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(node[member])) children.push(...(node[member] as unknown[]));
  children.push(node.not, node.additionalProperties, node.additionalItems);
  for (const member of ['properties', 'patternProperties', 'definitions', 'dependencies'])
    if (isPlainObject(node[member])) children.push(...Object.values(node[member] as object));
  return children.some((child) => isPlainObject(child) && schemaHas(child, predicate));
}
