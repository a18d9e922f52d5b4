/**
 * A CRD version's selectableFields (ValidateCustomResourceSelectableFields): each jsonPath must lead,
 * by the schema, to a string, boolean or integer field outside metadata, at most 8 of them. The
 * path is read as CEL's ValidFieldPath reads it, without array notation, over the structural
 * schema (NewStructural, whose errors are reported first).
 */
import { type FieldError, FieldPath, duplicate, invalid, required, tooMany } from '../apimachinery/field-error.js';
import { list, string } from '../golang/values.js';
import type { JsonObject } from '../../util/json.js';
import { pointer } from './custom-resource-definition-internal.js';

const MAX_SELECTABLE_FIELDS = 8;

/**
 * `owner` is the version's path (or spec's, for fields moved up); the schema is its openAPIV3Schema,
 * undefined where spec.validation has none.
 */
export function validateSelectableFields(fields: JsonObject[], schema: JsonObject | undefined, owner: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const structuralError = newStructuralError(schema);
  if (structuralError !== undefined) errors.push(invalid(owner.child('schema', 'openAPIV3Schema'), '', structuralError));
  const path = owner.child('selectableFields');
  const unique = new Set<string>();
  for (const [i, field] of fields.entries()) {
    const at = path.index(i).child('jsonPath');
    const jsonPath = string(field.jsonPath);
    if (jsonPath === '') {
      errors.push(required(at));
      continue;
    }
    const found = validFieldPath(jsonPath, structuralError === undefined ? schema : undefined);
    // Go dereferences a missing schema and panics: the API server answers an internal error, and
    // reports none of these. The CRD is refused for its schema anyway.
    if (found === PANIC) return errors;
    if (typeof found === 'string') {
      errors.push(invalid(at, jsonPath, `is an invalid path: ${found}`));
      continue;
    }
    if (found.root === 'metadata') errors.push(invalid(at, jsonPath, 'must not point to fields in metadata'));
    if (!['string', 'boolean', 'integer'].includes(string(found.schema?.type)))
      errors.push(
        invalid(
          at,
          jsonPath,
          'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
        ),
      );
    if (unique.has(found.path)) errors.push(duplicate(at, jsonPath));
    else unique.add(found.path);
  }
  if (unique.size > MAX_SELECTABLE_FIELDS) errors.push(tooMany(path, unique.size, MAX_SELECTABLE_FIELDS));
  return errors;
}

/** ValidFieldPath's tokens: '.', '[' and ']' alone, a single-quoted string whole, the text between. */
function tokens(jsonPath: string): string[] {
  const found: string[] = [];
  let rest = jsonPath;
  while (rest.length > 0) {
    let end = rest.length;
    if (rest[0] === "'") {
      for (let i = 1; i < rest.length; i++)
        if (rest[i] === "'" && rest[i - 1] !== '\\') {
          end = i + 1;
          break;
        }
    } else {
      const delimiter = rest.search(/[.[\]]/);
      end = delimiter === 0 ? 1 : delimiter > 0 ? delimiter : rest.length;
    }
    found.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  return found;
}

interface Found {
  /** field.Path's string of the path, and its first element. */
  path: string;
  root: string;
  /** The schema the path leads to; undefined past an additionalProperties without a schema. */
  schema: JsonObject | undefined;
}

const hasProperties = (schema: JsonObject | undefined): boolean => Object.keys(pointer(schema?.properties) ?? {}).length > 0;

const PANIC = Symbol('panic');

/** cel.ValidFieldPath with array notation disallowed: what it finds, or its error's text. */
function validFieldPath(jsonPath: string, root: JsonObject | undefined): Found | string | typeof PANIC {
  const queue = tokens(jsonPath);
  let schema: JsonObject | undefined = root;
  let path: FieldPath | undefined;
  let first = '';
  while (queue.length > 0) {
    const token = queue.shift()!;
    if (token === '[') return 'array notation is not allowed';
    if (token !== '.') return `expected [ or . but got: ${token}`;
    const name = queue.shift();
    if (name === undefined) return 'unexpected end of JSON path';
    if (schema === undefined) return PANIC;
    if (hasProperties(schema)) {
      if (path === undefined) first = name;
      path = path === undefined ? FieldPath.of(name) : path.child(name);
      const property = pointer(pointer(schema?.properties)?.[name]);
      if (property === undefined || !Object.hasOwn(pointer(schema?.properties) ?? {}, name)) return 'does not refer to a valid field';
      schema = property;
    } else if (schema.additionalProperties !== undefined && schema.additionalProperties !== null) {
      // A map key as the first element prints as [key]: never the root "metadata".
      if (path === undefined) first = `[${name}]`;
      path = path === undefined ? FieldPath.of('').key(name) : path.key(name);
      schema = pointer(schema.additionalProperties);
    } else return 'does not refer to a valid field';
  }
  return { path: path?.toString() ?? '', root: first, schema };
}

const UNSUPPORTED: Array<[string, string]> = [
  ['id', 'id'],
  ['$schema', 'schema'],
  ['$ref', '$ref'],
  ['patternProperties', 'patternProperties'],
  ['dependencies', 'dependencies'],
  ['additionalItems', 'additionalItems'],
  ['definitions', 'definitions'],
];

/** NewStructural's first error on the schema, in Go's order (properties in map order, here sorted). */
function newStructuralError(node: JsonObject | undefined): string | undefined {
  if (node === undefined) return undefined;
  for (const [member, name] of UNSUPPORTED) {
    const value = node[member];
    const set =
      member === 'additionalItems'
        ? value !== undefined && value !== null
        : typeof value === 'string'
          ? value !== ''
          : Object.keys(pointer(value) ?? {}).length > 0;
    if (set) return `OpenAPIV3Schema '${name}' is not supported`;
  }
  for (const nested of [
    pointer(node.not),
    ...['allOf', 'anyOf', 'oneOf'].flatMap((member) => list(node[member]).map((item) => pointer(item) ?? {})),
  ]) {
    const error = newStructuralError(nested);
    if (error !== undefined) return error;
  }
  if (node['x-kubernetes-preserve-unknown-fields'] === false)
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  if (Array.isArray(node.items) && node.items.length > 0) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  const children = [
    pointer(node.items),
    ...Object.keys(pointer(node.properties) ?? {})
      .sort()
      .map((name) => pointer(pointer(node.properties)![name]) ?? {}),
    pointer(node.additionalProperties),
  ];
  for (const child of children) {
    const error = newStructuralError(child);
    if (error !== undefined) return error;
  }
  return undefined;
}
