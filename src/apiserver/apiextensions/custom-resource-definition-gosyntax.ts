/**
 * Go's `%#v` of the internal CRD types that ValidateCustomResourceDefinition shows as a bad value:
 * spec.versions (storage and uniqueness errors) and a root schema (status subresource errors).
 * fmt prints a set pointer as its address, which differs from run to run: here it is 0xc000000000.
 */
import { GoSyntax } from '../apimachinery/field-error.js';
import { goQuote } from '../golang/strconv.js';
import { isPlainObject, type JsonObject } from '../../util/json.js';
import type { InternalVersion } from './custom-resource-definition-internal.js';

const ADDRESS = '0xc000000000';
const ptr = (type: string, set: boolean): string => `(*${type})(${set ? ADDRESS : 'nil'})`;
const isSet = (value: unknown): boolean => value !== undefined && value !== null;
const str = (value: unknown): string => goQuote(typeof value === 'string' ? value : '');
const bool = (value: unknown): string => String(value === true);

/** A Go slice: `T(nil)` when unset, else `T{a, b}`. */
function slice(type: string, value: unknown, item: (value: unknown) => string): string {
  return Array.isArray(value) ? `${type}{${value.map(item).join(', ')}}` : `${type}(nil)`;
}

/** A Go map: keys sorted as fmt sorts them. */
function map(type: string, value: unknown, item: (value: unknown) => string): string {
  if (!isPlainObject(value)) return `${type}(nil)`;
  const keys = Object.keys(value).sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : a === b ? 0 : 1));
  return `${type}{${keys.map((key) => `${goQuote(key)}:${item(value[key])}`).join(', ')}}`;
}

export function goVersions(versions: InternalVersion[], set: boolean): GoSyntax {
  const type = '[]apiextensions.CustomResourceDefinitionVersion';
  return new GoSyntax(set ? `${type}{${versions.map(goVersion).join(', ')}}` : `${type}(nil)`);
}

function goVersion(version: InternalVersion): string {
  const column = (value: unknown): string => {
    const c = isPlainObject(value) ? value : {};
    const priority = typeof c.priority === 'number' ? c.priority : 0;
    return `apiextensions.CustomResourceColumnDefinition{Name:${str(c.name)}, Type:${str(c.type)}, Format:${str(c.format)}, Description:${str(c.description)}, Priority:${priority}, JSONPath:${str(c.jsonPath)}}`;
  };
  const field = (value: unknown): string => `apiextensions.SelectableField{JSONPath:${str(isPlainObject(value) ? value.jsonPath : '')}}`;
  return (
    `apiextensions.CustomResourceDefinitionVersion{Name:${goQuote(version.name)}, Served:${version.served}, Storage:${version.storage}, ` +
    `Deprecated:${version.deprecated}, DeprecationWarning:${ptr('string', version.deprecationWarning !== undefined)}, ` +
    `Schema:${ptr('apiextensions.CustomResourceValidation', version.schema !== undefined)}, ` +
    `Subresources:${ptr('apiextensions.CustomResourceSubresources', version.subresources !== undefined)}, ` +
    `AdditionalPrinterColumns:${slice('[]apiextensions.CustomResourceColumnDefinition', version.additionalPrinterColumns, column)}, ` +
    `SelectableFields:${slice('[]apiextensions.SelectableField', version.selectableFields, field)}}`
  );
}

export const goSchema = (schema: JsonObject): GoSyntax => new GoSyntax(schemaProps(schema));

function schemaProps(value: unknown): string {
  const s = isPlainObject(value) ? value : {};
  const props = (type: string, member: unknown): string => map(type, member, schemaProps);
  const list = (member: unknown): string => slice('[]apiextensions.JSONSchemaProps', member, schemaProps);
  const strings = (member: unknown): string => slice('[]string', member, str);
  const dependency = (item: unknown): string =>
    `apiextensions.JSONSchemaPropsOrStringArray{Schema:${ptr('apiextensions.JSONSchemaProps', isPlainObject(item))}, Property:${Array.isArray(item) ? strings(item) : '[]string(nil)'}}`;
  const rule = (item: unknown): string => {
    const r = isPlainObject(item) ? item : {};
    return (
      `apiextensions.ValidationRule{Rule:${str(r.rule)}, Message:${str(r.message)}, MessageExpression:${str(r.messageExpression)}, ` +
      `Reason:${ptr('apiextensions.FieldValueErrorReason', isSet(r.reason))}, FieldPath:${str(r.fieldPath)}, OptionalOldSelf:${ptr('bool', isSet(r.optionalOldSelf))}}`
    );
  };
  const fields: Array<[string, string]> = [
    ['ID', str(s.id)],
    ['Schema', str(s.$schema)],
    ['Ref', ptr('string', isSet(s.$ref))],
    ['Description', str(s.description)],
    ['Type', str(s.type)],
    ['Nullable', bool(s.nullable)],
    ['Format', str(s.format)],
    ['Title', str(s.title)],
    ['Default', ptr('apiextensions.JSON', isSet(s.default))],
    ['Maximum', ptr('float64', isSet(s.maximum))],
    ['ExclusiveMaximum', bool(s.exclusiveMaximum)],
    ['Minimum', ptr('float64', isSet(s.minimum))],
    ['ExclusiveMinimum', bool(s.exclusiveMinimum)],
    ['MaxLength', ptr('int64', isSet(s.maxLength))],
    ['MinLength', ptr('int64', isSet(s.minLength))],
    ['Pattern', str(s.pattern)],
    ['MaxItems', ptr('int64', isSet(s.maxItems))],
    ['MinItems', ptr('int64', isSet(s.minItems))],
    ['UniqueItems', bool(s.uniqueItems)],
    ['MultipleOf', ptr('float64', isSet(s.multipleOf))],
    ['Enum', slice('[]apiextensions.JSON', s.enum, (item) => (item === null ? 'apiextensions.JSON(nil)' : goJson(item)))],
    ['MaxProperties', ptr('int64', isSet(s.maxProperties))],
    ['MinProperties', ptr('int64', isSet(s.minProperties))],
    ['Required', strings(s.required)],
    ['Items', ptr('apiextensions.JSONSchemaPropsOrArray', isSet(s.items))],
    ['AllOf', list(s.allOf)],
    ['OneOf', list(s.oneOf)],
    ['AnyOf', list(s.anyOf)],
    ['Not', ptr('apiextensions.JSONSchemaProps', isSet(s.not))],
    ['Properties', props('map[string]apiextensions.JSONSchemaProps', s.properties)],
    ['AdditionalProperties', ptr('apiextensions.JSONSchemaPropsOrBool', isSet(s.additionalProperties))],
    ['PatternProperties', props('map[string]apiextensions.JSONSchemaProps', s.patternProperties)],
    ['Dependencies', map('apiextensions.JSONSchemaDependencies', s.dependencies, dependency)],
    ['AdditionalItems', ptr('apiextensions.JSONSchemaPropsOrBool', isSet(s.additionalItems))],
    ['Definitions', props('apiextensions.JSONSchemaDefinitions', s.definitions)],
    ['ExternalDocs', ptr('apiextensions.ExternalDocumentation', isSet(s.externalDocs))],
    ['Example', ptr('apiextensions.JSON', isSet(s.example))],
    ['XPreserveUnknownFields', ptr('bool', isSet(s['x-kubernetes-preserve-unknown-fields']))],
    ['XEmbeddedResource', bool(s['x-kubernetes-embedded-resource'])],
    ['XIntOrString', bool(s['x-kubernetes-int-or-string'])],
    ['XListMapKeys', strings(s['x-kubernetes-list-map-keys'])],
    ['XListType', ptr('string', isSet(s['x-kubernetes-list-type']))],
    ['XMapType', ptr('string', isSet(s['x-kubernetes-map-type']))],
    ['XValidations', slice('apiextensions.ValidationRules', s['x-kubernetes-validations'], rule)],
  ];
  return `apiextensions.JSONSchemaProps{${fields.map(([name, text]) => `${name}:${text}`).join(', ')}}`;
}

/** A decoded JSON value (util/json: integers as int64, other numbers as float64) as %#v prints it inside an interface. */
function goJson(value: unknown): string {
  if (value === null) return 'interface {}(nil)';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : goFloat(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map(goJson).join(', ')}}`;
  return map('map[string]interface {}', value, goJson);
}

/** %#v of a float64: the shortest digits, in exponent form below 1e-4 and from 1e+06 on. */
function goFloat(value: number): string {
  const [mantissa, power] = value.toExponential().split('e') as [string, string];
  const exponent = Number(power);
  if (exponent >= -4 && exponent < 6) return String(value);
  return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
}
