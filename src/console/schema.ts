// Reading a collection's input JSON Schema for the form: `$ref`s followed, `allOf` parts merged,
// and each node told apart as the kind of field it needs (enum, text, boolean, object, map, array,
// or any JSON). Pure functions: no DOM here.

import { fromPointer, type JsonValue, ownMember } from '../util/json.js';

/** A JSON Schema node, as far as the form reads it. */
export interface Schema {
  $ref?: string;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  type?: string | string[];
  enum?: JsonValue[];
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  items?: Schema;
  'x-kubernetes-int-or-string'?: boolean;
  [keyword: string]: unknown;
}

/** What kind of field a schema node needs; see fieldOf. */
export type Field = { node: Schema; description: string } & (
  | { kind: 'enum'; values: JsonValue[] }
  | { kind: 'text'; accepts: Set<string>; format: string | undefined }
  | { kind: 'boolean' }
  | { kind: 'object'; properties: Record<string, Schema>; required: Set<string>; additional: Schema | undefined }
  | { kind: 'map'; additional: Schema }
  | { kind: 'array'; items: Schema }
  | { kind: 'json' }
);
export type TextField = Extract<Field, { kind: 'text' }>;

const SCALARS = ['integer', 'number', 'string', 'boolean'];

/** The node a local `$ref` names (`#/definitions/ObjectMeta`, `#/$defs/…`); `{}` (anything) when it names nothing. */
function lookup(root: Schema, ref: string): Schema {
  if (!ref.startsWith('#/')) return {};
  let node: unknown = root;
  for (const segment of fromPointer(ref.slice(1))) node = ownMember(node, segment);
  return (node ?? {}) as Schema;
}

/** `a` and `b` as one schema: `a` wins for single values (its description first), properties and `required` join. */
function merge(a: Schema, b: Schema): Schema {
  const merged: Schema = { ...b, ...a };
  if (a.properties && b.properties) {
    const properties: Record<string, Schema> = { ...b.properties };
    for (const [name, schema] of Object.entries(a.properties))
      properties[name] = name in b.properties ? { allOf: [schema, b.properties[name]!] } : schema;
    merged.properties = properties;
  }
  if (a.required || b.required) merged.required = [...new Set([...(a.required ?? []), ...(b.required ?? [])])];
  if (a.enum && b.enum) merged.enum = a.enum.filter((value) => b.enum!.some((other) => JSON.stringify(other) === JSON.stringify(value)));
  return merged;
}

/** One schema node with its `$ref` followed and its `allOf` parts merged (a description next to a `$ref` wins). */
export function resolve(schema: unknown, root: Schema, depth = 0): Schema {
  if (schema === null || typeof schema !== 'object' || depth > 32) return {};
  const { $ref, allOf, ...own } = schema as Schema;
  let resolved: Schema = own;
  if (typeof $ref === 'string') resolved = merge(resolved, resolve(lookup(root, $ref), root, depth + 1));
  for (const part of allOf ?? []) resolved = merge(resolved, resolve(part, root, depth + 1));
  return resolved;
}

const typesOf = (node: Schema): string[] =>
  (Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type]).filter((type) => type !== 'null');
const isScalars = (types: string[]) => types.every((type) => SCALARS.includes(type));

/**
 * What kind of field a schema node needs:
 * - `enum`: a choice (`values`);
 * - `text`: a scalar typed as text, `accepts` saying which JSON types it may become (int-or-string
 *   accepts integer and string, a quantity number and string), `format` the Kubernetes format;
 * - `boolean`;
 * - `object` (named `properties`, `required`), `map` (`additionalProperties` only), `array` (`items`);
 * - `json`: anything else (no type, or a union of objects and scalars): edited as JSON.
 */
export function fieldOf(schema: unknown, root: Schema): Field {
  const node = resolve(schema, root);
  const field = { node, description: node.description ?? '' };
  const values = node.enum?.filter((value) => value !== null);
  if (values?.length) return { ...field, kind: 'enum', values };
  const variants = (node.anyOf ?? node.oneOf ?? [])
    .map((variant) => resolve(variant, root))
    .filter((variant) => !(variant.type === 'null' && !variant.enum));
  if (typesOf(node).length === 0 && variants.length > 0) {
    if (variants.length === 1) return { ...fieldOf(variants[0], root), description: field.description || (variants[0]!.description ?? '') };
    if (variants.every((variant) => !variant.enum && typesOf(variant).length > 0 && isScalars(typesOf(variant)))) {
      const accepts = new Set(variants.flatMap(typesOf));
      const format = variants.map((variant) => variant.format).find(Boolean);
      return accepts.size === 1 && accepts.has('boolean') ? { ...field, kind: 'boolean' } : { ...field, kind: 'text', accepts, format };
    }
    return { ...field, kind: 'json' };
  }
  if (node['x-kubernetes-int-or-string'])
    return { ...field, kind: 'text', accepts: new Set(['integer', 'string']), format: 'int-or-string' };
  const types = typesOf(node);
  if (types.length > 1)
    return isScalars(types) ? { ...field, kind: 'text', accepts: new Set(types), format: node.format } : { ...field, kind: 'json' };
  const type = types[0] ?? (node.properties ? 'object' : node.items ? 'array' : undefined);
  const additional =
    node.additionalProperties !== null && typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
  switch (type) {
    case 'object':
      if (node.properties)
        return { ...field, kind: 'object', properties: node.properties, required: new Set(node.required ?? []), additional };
      return additional ? { ...field, kind: 'map', additional } : { ...field, kind: 'json' };
    case 'array':
      return { ...field, kind: 'array', items: node.items ?? {} };
    case 'boolean':
      return { ...field, kind: 'boolean' };
    case 'integer':
    case 'number':
    case 'string':
      return { ...field, kind: 'text', accepts: new Set([type]), format: node.format };
    default:
      return { ...field, kind: 'json' };
  }
}

/** The schema of a member, item or map entry of a field's value; undefined when the schema does not know it. */
export function childSchema(field: Field, segment: string): Schema | undefined {
  if (field.kind === 'object') return field.properties[segment] ?? field.additional;
  if (field.kind === 'map') return field.additional;
  if (field.kind === 'array' && /^\d+$/.test(segment)) return field.items;
  return undefined;
}

/** A short hint of what a text field takes, shown as its placeholder: "int32", "int32 or string", "quantity, e.g. 10Gi". */
export function textHint(field: TextField): string {
  const { accepts, format } = field;
  if (format === 'quantity') return 'quantity, e.g. 10Gi or 500m';
  if (accepts.has('integer') && accepts.has('string')) return `${format && format !== 'int-or-string' ? format : 'integer'} or string`;
  if (accepts.has('number') && accepts.has('string')) return 'number or string';
  if (accepts.has('integer')) return format ?? 'integer';
  if (accepts.has('number')) return format ?? 'number';
  if (format === 'byte') return 'base64';
  if (format === 'date-time') return 'date-time, e.g. 2024-01-31T12:00:00Z';
  return format ?? '';
}

/**
 * The JSON value a text field's text stands for: a number where the schema takes one and the text
 * is one (exactly: an integer beyond 2^53 stays text), true or false where it takes a boolean, else
 * the text itself, so that the server can say what is wrong with it.
 */
export function parseText(text: string, field: TextField): JsonValue {
  const trimmed = text.trim();
  if (field.accepts.has('integer') && /^-?\d+$/.test(trimmed) && Number.isSafeInteger(Number(trimmed))) return Number(trimmed);
  if (field.accepts.has('number') && /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed) && Number.isFinite(Number(trimmed)))
    return Number(trimmed);
  if (field.accepts.has('boolean') && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
  return text;
}

/** A new value for an added member or item: an empty object or list, or nothing for a scalar. */
export function emptyValue(field: Field): JsonValue | undefined {
  if (field.kind === 'object' || field.kind === 'map') return {};
  if (field.kind === 'array') return [];
  if (field.kind === 'enum') return field.values[0];
  if (field.kind === 'boolean') return false;
  return field.kind === 'text' && field.accepts.has('string') ? '' : undefined;
}
