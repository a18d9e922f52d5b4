/**
 * What ValidateCustomResourceDefinition checks of one version, and of the spec-level members the
 * conversion moved up from alike versions: the deprecation warning, the root of the schema (the
 * rest of the schema is src/crd's), the status and scale subresources, printer columns and
 * selectable fields. Paths follow Go's, internal names included (`JSONPath`).
 */
import { type FieldError, type FieldPath, forbidden, invalid, required } from '../apimachinery/field-error.js';
import { isSet, list, string } from '../golang/values.js';
import type { JsonObject } from '../../util/json.js';
import { goSchema } from './custom-resource-definition-gosyntax.js';
import { type InternalVersion, pointer } from './custom-resource-definition-internal.js';
import { validateSelectableFields } from './custom-resource-definition-selectable.js';

export function validateVersion(version: InternalVersion, path: FieldPath, statusEnabled: boolean): FieldError[] {
  const errors = deprecationWarningErrors(version.deprecated, version.deprecationWarning).map((message) =>
    invalid(path.child('deprecationWarning'), version.deprecationWarning, message),
  );
  errors.push(...validateValidation(version.schema, statusEnabled, path.child('schema')));
  errors.push(...validateSubresources(version.subresources, path.child('subresources')));
  (version.additionalPrinterColumns ?? []).forEach((column, i) =>
    errors.push(...validateColumn(column, path.child('additionalPrinterColumns').index(i))),
  );
  const fields = version.selectableFields ?? [];
  if (fields.length > 0) {
    const schema = pointer(version.schema?.openAPIV3Schema);
    if (schema === undefined)
      errors.push(
        invalid(path.child('selectableFields'), '', 'selectableFields may only be set when version.schema.openAPIV3Schema is not included'),
      );
    else errors.push(...validateSelectableFields(fields, schema, path));
  }
  return errors;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function deprecationWarningErrors(deprecated: boolean, warning: string | undefined): string[] {
  if (!deprecated && warning !== undefined) return ['can only be set for deprecated versions'];
  if (warning === undefined) return [];
  const errors: string[] = [];
  const bytes = Buffer.byteLength(warning, 'utf8');
  if (bytes > 256) errors.push('must be <= 256 characters long');
  if (bytes === 0) errors.push('must not be an empty string');
  let index = 0; // Go ranges over a string by byte offsets
  for (const rune of warning) {
    // Go decodes a lone surrogate as U+FFFD, a printable rune.
    if (!PRINTABLE.test(rune) && !/^[\uD800-\uDFFF]$/.test(rune)) {
      errors.push(`must only contain printable UTF-8 characters; non-printable character found at index ${index}`);
      break;
    }
    index += Buffer.byteLength(rune, 'utf8');
  }
  return errors;
}

const words = (text: string): string[] => text.trim().split(/\s+/);
// Only these members of the root schema survive extracting properties.status for the status subresource.
const ALLOWED_AT_ROOT = words(`Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength
  Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations`);
/** The internal JSONSchemaProps' fields in declaration order, each with its JSON name. */
const SCHEMA_FIELDS = words(`ID:id Schema:$schema Ref:$ref Description:description Type:type Nullable:nullable Format:format
  Title:title Default:default Maximum:maximum ExclusiveMaximum:exclusiveMaximum Minimum:minimum ExclusiveMinimum:exclusiveMinimum
  MaxLength:maxLength MinLength:minLength Pattern:pattern MaxItems:maxItems MinItems:minItems UniqueItems:uniqueItems
  MultipleOf:multipleOf Enum:enum MaxProperties:maxProperties MinProperties:minProperties Required:required Items:items
  AllOf:allOf OneOf:oneOf AnyOf:anyOf Not:not Properties:properties AdditionalProperties:additionalProperties
  PatternProperties:patternProperties Dependencies:dependencies AdditionalItems:additionalItems Definitions:definitions
  ExternalDocs:externalDocs Example:example XPreserveUnknownFields:x-kubernetes-preserve-unknown-fields
  XEmbeddedResource:x-kubernetes-embedded-resource XIntOrString:x-kubernetes-int-or-string XListMapKeys:x-kubernetes-list-map-keys
  XListType:x-kubernetes-list-type XMapType:x-kubernetes-map-type XValidations:x-kubernetes-validations`).map(
  (pair) => pair.split(':') as [string, string],
);
/** The fields that are Go strings or bools: their zero is "" or false; a pointer, slice or map's is nil alone. */
const VALUE_FIELDS = new Set(
  words(
    'ID Schema Description Type Nullable Format Title ExclusiveMaximum ExclusiveMinimum Pattern UniqueItems XEmbeddedResource XIntOrString',
  ),
);

/** reflect's zero value: an empty but set slice or map is not zero, nor is a pointer to "" or false. */
const isZeroField = (field: string, value: unknown): boolean =>
  value === undefined || value === null || (VALUE_FIELDS.has(field) && (value === '' || value === false));

/** The root rules of validateCustomResourceDefinitionValidation: what a status subresource needs, and no nullable root. */
export function validateValidation(validation: JsonObject | undefined, statusEnabled: boolean, path: FieldPath): FieldError[] {
  const schema = pointer(validation?.openAPIV3Schema);
  if (schema === undefined) return [];
  const errors: FieldError[] = [];
  if (statusEnabled) {
    for (const [field, member] of SCHEMA_FIELDS) {
      if (isZeroField(field, schema[member])) continue;
      if (field === 'Type') {
        if (schema.type === 'object') continue;
        errors.push(
          invalid(
            path.child('openAPIV3Schema', 'type'),
            string(schema.type),
            'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
          ),
        );
        break;
      }
      if (!ALLOWED_AT_ROOT.includes(field)) {
        errors.push(
          invalid(
            path.child('openAPIV3Schema'),
            goSchema(schema),
            `only [${ALLOWED_AT_ROOT.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`,
          ),
        );
        break;
      }
    }
  }
  if (schema.nullable === true) errors.push(forbidden(path.child('openAPIV3Schema', 'nullable'), 'nullable cannot be true at the root'));
  return errors;
}

export const hasStatusEnabled = (subresources: JsonObject | undefined): boolean => isSet(subresources?.status);

/** ValidateCustomResourceDefinitionSubresources: the scale subresource's paths. */
export function validateSubresources(subresources: JsonObject | undefined, path: FieldPath): FieldError[] {
  const scale = pointer(subresources?.scale);
  if (scale === undefined) return [];
  const errors: FieldError[] = [];
  const under = (member: string, prefixes: string[], message: string, optional: boolean): void => {
    const value = string(scale[member]);
    const at = path.child('scale', member);
    if (value === '') {
      if (!optional) errors.push(required(at));
      return;
    }
    const simple = simpleJSONPathErrors(value, at);
    if (simple.length > 0) errors.push(...simple);
    else if (!prefixes.some((prefix) => value.startsWith(prefix))) errors.push(invalid(at, value, message));
  };
  under('specReplicasPath', ['.spec.'], 'should be a json path under .spec', false);
  under('statusReplicasPath', ['.status.'], 'should be a json path under .status', false);
  under('labelSelectorPath', ['.spec.', '.status.'], 'should be a json path under either .spec or .status', true);
  return errors;
}

/** validateSimpleJSONPath: a path that starts with a dot (the dot-notation check never fails). */
function simpleJSONPathErrors(value: string, path: FieldPath): FieldError[] {
  if (value === '') return [invalid(path, value, 'must not be empty')];
  return value.startsWith('.') ? [] : [invalid(path, value, 'must be a simple json path starting with .')];
}

const COLUMN_TYPES = 'boolean,date,integer,number,string';
const COLUMN_FORMATS = 'byte,date,date-time,double,float,int32,int64,password';

/** ValidateCustomResourceColumnDefinition. */
export function validateColumn(column: JsonObject, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (string(column.name) === '') errors.push(required(path.child('name')));
  const type = string(column.type);
  if (type === '') errors.push(required(path.child('type'), `must be one of ${COLUMN_TYPES}`));
  else if (!COLUMN_TYPES.split(',').includes(type)) errors.push(invalid(path.child('type'), type, `must be one of ${COLUMN_TYPES}`));
  const format = string(column.format);
  if (format !== '' && !COLUMN_FORMATS.split(',').includes(format))
    errors.push(invalid(path.child('format'), format, `must be one of ${COLUMN_FORMATS}`));
  const jsonPath = string(column.jsonPath);
  if (jsonPath === '') errors.push(required(path.child('JSONPath')));
  else errors.push(...simpleJSONPathErrors(jsonPath, path.child('JSONPath')));
  return errors;
}

/** The spec-level printer columns (moved up from alike versions). */
export const validateColumns = (columns: unknown, path: FieldPath): FieldError[] =>
  list(columns).flatMap((column, i) => validateColumn(pointer(column) ?? {}, path.index(i)));
