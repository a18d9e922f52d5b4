/**
 * A custom resource's type, as built-in kinds have theirs: one served version's openAPIV3Schema made
 * into the same `KindSchema` (root definition named after the kind, ObjectMeta by `$ref`), so that
 * input schemas, `.d.ts`, discovery and member lookups work for it unchanged. The OpenAPI 3.0 of the
 * CRD becomes the draft-07 JSON Schema the rest of the build speaks, with Kubernetes' meaning of its
 * extensions: nullable, int-or-string, preserve-unknown-fields, embedded resources, list types.
 */
import { goRegExpError } from '../schema/go-regexp.js';
import type { KindSchema, Schema } from '../kubernetes/kind-schema.js';
import { isPlainObject, type JsonValue } from '../util/json.js';
import type { Crd, CrdVersion } from './crd.js';
import { OBJECT_META } from './object-meta.js';

type Node = Record<string, unknown>;

/**
 * String formats checked here, by the name ajv knows them under (the Go rules of kube-formats):
 * those whose rule matches the API server's. Others the API server knows (uri, email, hostname,
 * uuid, duration, cidr, mac …) follow Go rules ajv's formats do not, and are left to the API server,
 * as are the formats it ignores.
 */
const STRING_FORMATS: Record<string, string> = {
  byte: 'byte',
  'date-time': 'date-time',
  datetime: 'date-time',
  date: 'date',
  ipv4: 'ipv4',
  ipv6: 'ipv6',
};

/** Annotations kept for readers of the schema (OpenAPI, discovery); validators ignore them. */
const KEPT_EXTENSIONS = [
  'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
];

const INT_OR_STRING_ANY_OF = JSON.stringify([{ type: 'integer' }, { type: 'string' }]);

/** The kind a served version of the CRD defines; `objectMeta` is ObjectMeta's definitions (object-meta.ts). */
export function crdKindSchema(crd: Crd, version: CrdVersion, objectMeta: Record<string, Schema>): KindSchema {
  const apiVersion = `${crd.group}/${version.name}`;
  const kind = crd.kind;
  const meta = withoutCollision(objectMeta, kind);
  const metaRef = `#/definitions/${meta.names[OBJECT_META] ?? OBJECT_META}`;
  const root = convert(version.schema, metaRef);
  const properties = (isPlainObject(root.properties) ? root.properties : {}) as Record<string, Schema>;
  const definitions: Record<string, Schema> = { ...meta.definitions };

  properties.apiVersion = {
    ...describedBy(properties.apiVersion, 'APIVersion defines the versioned schema of this representation of an object.'),
    type: 'string',
    const: apiVersion,
  };
  properties.kind = {
    ...describedBy(properties.kind, 'Kind is a string value representing the REST resource this object represents.'),
    type: 'string',
    const: kind,
  };
  const restricted = metadataRestrictions(version.schema);
  if (restricted === undefined) {
    properties.metadata = { $ref: metaRef, ...describedBy(properties.metadata, "Standard object's metadata.") };
  } else {
    // The CRD may restrict name and generateName: a copy of ObjectMeta that says so.
    const name = `${kind}${OBJECT_META}`;
    const base = definitions[meta.names[OBJECT_META] ?? OBJECT_META]!;
    const baseProperties = (base.properties ?? {}) as Record<string, Schema>;
    const merged = Object.fromEntries(
      Object.entries(restricted).map(([member, schema]) => [member, { ...baseProperties[member], ...schema, type: 'string' } as Schema]),
    );
    definitions[name] = { ...base, properties: { ...baseProperties, ...merged } } as Schema;
    properties.metadata = { $ref: `#/definitions/${name}`, ...describedBy(properties.metadata, "Standard object's metadata.") };
  }
  const required = Array.isArray(root.required)
    ? (root.required as string[]).filter((member) => member !== 'apiVersion' && member !== 'kind')
    : [];
  definitions[kind] = { ...root, type: 'object', properties, required: ['apiVersion', 'kind', ...required] } as Schema;
  return { kind, apiVersion, definitions };
}

/** One node of the CRD's schema (OpenAPI 3.0 with Kubernetes extensions) as draft-07 JSON Schema. */
function convert(node: Node, metaRef: string): Schema {
  const out: Record<string, unknown> = {};
  const type = typeof node.type === 'string' ? node.type : undefined;
  const nullable = node.nullable === true;
  if (typeof node.title === 'string') out.title = node.title;
  if (typeof node.description === 'string') out.description = node.description;

  if (node['x-kubernetes-int-or-string'] === true) {
    // As IntOrString of the built-in kinds: an integer or a string, nothing else.
    out.anyOf = [{ type: 'integer', format: 'int64' }, { type: 'string' }, ...(nullable ? [{ type: 'null' }] : [])];
  } else if (type !== undefined) {
    out.type = nullable ? [type, 'null'] : type;
  }
  const format = typeof node.format === 'string' ? node.format : undefined;
  if (type === 'integer') out.format = format === 'int32' ? 'int32' : 'int64';
  // A format without a type (a branch of anyOf/oneOf, as Gateway API's IP addresses) judges strings, as in kube-openapi.
  else if ((type === 'string' || type === undefined) && format !== undefined && STRING_FORMATS[format] !== undefined)
    out.format = STRING_FORMATS[format];
  if (Array.isArray(node.enum)) out.enum = nullable && !node.enum.includes(null) ? [...node.enum, null] : node.enum;

  // Numbers: OpenAPI 3.0's boolean exclusiveMinimum/Maximum become draft-07's numeric bounds.
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (typeof node[bound] !== 'number') continue;
    if (node[exclusive] === true) out[exclusive] = node[bound];
    else out[bound] = node[bound];
  }
  for (const keyword of ['multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties']) {
    if (typeof node[keyword] === 'number') out[keyword] = node[keyword];
  }
  // Kept as Go reads it (ajv runs patterns with Go's regexp); one Go refuses is the CRD's lint error (structural-keywords.ts).
  if (typeof node.pattern === 'string' && goRegExpError(node.pattern) === undefined) {
    // RE2 is linear, not free (about a microsecond a character): a value already too long is refused for
    // its length alone, so the pattern never runs on more than maxLength characters.
    if (typeof node.maxLength === 'number') Object.assign(out, { if: { maxLength: node.maxLength }, then: { pattern: node.pattern } });
    else out.pattern = node.pattern;
  }

  if (isPlainObject(node.items)) out.items = convert(node.items, metaRef);
  // A set's repeats are refused at their index, in the API server's words, by list-map-keys.ts, not by uniqueItems.

  const embedded = node['x-kubernetes-embedded-resource'] === true;
  const preserve = node['x-kubernetes-preserve-unknown-fields'] === true;
  const properties: Record<string, Schema> = {};
  if (isPlainObject(node.properties)) {
    for (const [name, member] of Object.entries(node.properties)) if (isPlainObject(member)) properties[name] = convert(member, metaRef);
  }
  const required = Array.isArray(node.required) ? node.required.filter((member): member is string => typeof member === 'string') : [];
  if (embedded) {
    // An embedded resource has the type and object meta of a manifest, whatever the CRD lists.
    properties.apiVersion ??= { type: 'string' };
    properties.kind ??= { type: 'string' };
    properties.metadata = { $ref: metaRef };
    for (const member of ['apiVersion', 'kind']) if (!required.includes(member)) required.push(member);
  }
  if (Object.keys(properties).length > 0) out.properties = properties;
  if (required.length > 0) out.required = required;
  if (isPlainObject(node.additionalProperties)) out.additionalProperties = convert(node.additionalProperties, metaRef);
  else if (node.additionalProperties === true) out.additionalProperties = {};
  // Unknown members are kept, not pruned: not unknown to the schema either (no warning for them).
  else if (preserve && out.properties !== undefined) out.additionalProperties = {};

  if (node.default !== undefined) out.default = node.default as JsonValue;
  if (node.example !== undefined) out.examples = [node.example as JsonValue];
  for (const extension of KEPT_EXTENSIONS) if (node[extension] !== undefined) out[extension] = node[extension];

  // Value validations under logic junctors, minus the int-or-string pattern said above already.
  const junctions: Record<string, Schema[]> = {};
  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = node[junctor];
    if (!Array.isArray(branches)) continue;
    let parts = branches.filter(isPlainObject);
    if (junctor === 'anyOf' && JSON.stringify(parts) === INT_OR_STRING_ANY_OF) continue;
    if (junctor === 'allOf' && isPlainObject(parts[0]) && JSON.stringify(parts[0].anyOf) === INT_OR_STRING_ANY_OF)
      parts = [{ ...parts[0], anyOf: undefined }, ...parts.slice(1)];
    const converted = parts.map((part) => convert(part, metaRef)).filter((part) => Object.keys(part).length > 0);
    if (converted.length > 0) junctions[junctor] = converted;
  }
  if (junctions.anyOf !== undefined && out.anyOf !== undefined) junctions.allOf = [...(junctions.allOf ?? []), { anyOf: junctions.anyOf }];
  else if (junctions.anyOf !== undefined) out.anyOf = junctions.anyOf;
  if (junctions.allOf !== undefined) out.allOf = junctions.allOf;
  if (junctions.oneOf !== undefined) out.oneOf = junctions.oneOf;
  if (isPlainObject(node.not)) out.not = convert(node.not, metaRef);
  return out as Schema;
}

/** Root metadata's restrictions on name and generateName, converted, or undefined when it has none. */
function metadataRestrictions(root: Node): Record<string, Schema> | undefined {
  const metadata = isPlainObject(root.properties) ? root.properties.metadata : undefined;
  const properties = isPlainObject(metadata) && isPlainObject(metadata.properties) ? metadata.properties : {};
  const found = Object.entries(properties).filter(
    ([name, schema]) => (name === 'name' || name === 'generateName') && isPlainObject(schema),
  );
  if (found.length === 0) return undefined;
  return Object.fromEntries(found.map(([name, schema]) => [name, convert(schema as Node, '')]));
}

function describedBy(schema: Schema | undefined, fallback: string): { description: string } {
  return { description: typeof schema?.description === 'string' ? schema.description : fallback };
}

/** ObjectMeta's definitions, renamed where one is named like the kind (a kind called `Time`). */
function withoutCollision(
  objectMeta: Record<string, Schema>,
  kind: string,
): { definitions: Record<string, Schema>; names: Record<string, string> } {
  const taken = (name: string) => name === kind || name === `${kind}${OBJECT_META}`;
  if (!Object.keys(objectMeta).some(taken)) return { definitions: objectMeta, names: {} };
  const names = Object.fromEntries(Object.keys(objectMeta).map((name) => [name, `io.k8s.meta.${name}`]));
  const rename = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rename);
    if (!isPlainObject(value)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => [
        key,
        key === '$ref' && typeof member === 'string'
          ? `#/definitions/${names[member.replace('#/definitions/', '')] ?? member.replace('#/definitions/', '')}`
          : rename(member),
      ]),
    );
  };
  return {
    definitions: Object.fromEntries(Object.entries(objectMeta).map(([name, schema]) => [names[name]!, rename(schema) as Schema])),
    names,
  };
}
