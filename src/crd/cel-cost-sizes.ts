/**
 * What the API server's cost estimate knows of a schema (apiserver pkg/cel/common/schemas.go,
 * SchemaDeclType): each node's CEL type, the most elements (runes × 4, bytes, items, entries) it
 * may hold, and the fewest bytes it takes in JSON. Where a schema gives no maxLength, maxItems or
 * maxProperties, the most is what fits in the largest request (3 MiB); a rule's worst case is
 * reckoned from these, and its count of runs from the fewest bytes.
 */
import { isPlainObject } from '../util/json.js';
import { fixed, type Range } from './cel-cost-range.js';
import type { Decl } from './cel-cost-types.js';
import type { Expr } from './cel-type-check.js';
import { celName } from './cel-value.js';

type Node = Record<string, unknown>;

/** celconfig.MaxRequestSizeBytes. */
export const MAX_REQUEST_BYTES = 3n * 1024n * 1024n;
const MAX_STRING = MAX_REQUEST_BYTES - 2n;

const simple = (kind: 'bool' | 'double' | 'int' | 'string', minSize: bigint, at: string): Decl => ({
  type: { kind },
  maxElements: 0n,
  minSize,
  at,
});

const bound = (value: unknown): bigint | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? (value < 0 ? 0n : BigInt(Math.trunc(value))) : undefined;

const typeOf = (schema: unknown, name: string): unknown =>
  isPlainObject(schema) && isPlainObject(schema[name]) ? schema[name].type : undefined;

/** model.WithTypeAndObjectMeta: a resource's apiVersion, kind, metadata.name and generateName, unless the schema has them so. */
export function withTypeAndObjectMeta(schema: Node): Node {
  const properties = isPlainObject(schema.properties) ? schema.properties : undefined;
  const metadata = isPlainObject(properties?.metadata) ? properties.metadata : undefined;
  if (
    typeOf(properties, 'kind') === 'string' &&
    typeOf(properties, 'apiVersion') === 'string' &&
    metadata?.type === 'object' &&
    typeOf(metadata.properties, 'name') === 'string' &&
    typeOf(metadata.properties, 'generateName') === 'string'
  )
    return schema;
  const string = { type: 'string' };
  const meta = { type: 'object', properties: { name: string, generateName: string } };
  return { ...schema, properties: { ...properties, kind: string, apiVersion: string, metadata: meta } };
}

/** The Decl of a schema node (undefined where the API server has none: no type, an array without items); `at` is its place in a manifest. */
export function declOf(schema: Node, isResourceRoot: boolean, at = ''): Decl | undefined {
  if (schema['x-kubernetes-int-or-string'] === true) {
    return { type: { kind: 'dyn' }, maxElements: MAX_STRING, minSize: 1n, unbounded: 'maxLength', at };
  }
  if (isResourceRoot) schema = withTypeAndObjectMeta(schema);
  const embedded = (child: Node) => child['x-kubernetes-embedded-resource'] === true;
  switch (schema.type) {
    case 'array': {
      if (!isPlainObject(schema.items)) return undefined;
      const elem = declOf(schema.items, embedded(schema.items), `${at}/*`);
      if (elem === undefined) return undefined;
      const maxItems = bound(schema.maxItems);
      return {
        type: { kind: 'list', elem: elem.type },
        maxElements: maxItems ?? MAX_STRING / (elem.minSize + 1n),
        minSize: 2n,
        elem,
        ...(maxItems === undefined ? { unbounded: 'maxItems' as const } : {}),
        at,
      };
    }
    case 'object':
      return isPlainObject(schema.additionalProperties) ? mapDecl(schema, schema.additionalProperties, at) : objectDecl(schema, at);
    case 'string':
      return stringDecl(schema, at);
    case 'boolean':
      return simple('bool', 4n, at);
    case 'number':
      return simple('double', 1n, at);
    case 'integer':
      return simple('int', 1n, at);
    default:
      return undefined;
  }
}

function mapDecl(schema: Node, values: Node, at: string): Decl | undefined {
  const elem = declOf(values, values['x-kubernetes-embedded-resource'] === true, `${at}/*`);
  if (elem === undefined) return undefined;
  const maxProperties = bound(schema.maxProperties);
  return {
    type: { kind: 'map', key: { kind: 'string' }, value: elem.type },
    maxElements: maxProperties ?? MAX_STRING / (elem.minSize + 6n),
    minSize: 2n,
    elem,
    key: simple('string', 2n, `${at}/*`),
    ...(maxProperties === undefined ? { unbounded: 'maxProperties' as const } : {}),
    at,
  };
}

function objectDecl(schema: Node, at: string): Decl {
  const fields = new Map<string, Decl>();
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  let minSize = 2n;
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  for (const [name, property] of Object.entries(properties)) {
    if (!isPlainObject(property)) continue;
    const field = declOf(
      property,
      property['x-kubernetes-embedded-resource'] === true,
      `${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    );
    if (field === undefined) continue;
    const escaped = celName(name);
    if (escaped !== undefined) fields.set(escaped, field);
    // Go counts the name's bytes, the value's fewest and `"":,`.
    if (required.has(name) && property.default === undefined) minSize += BigInt(Buffer.byteLength(name)) + field.minSize + 4n;
  }
  const decl: Decl = { type: { kind: 'object', name: 'object' }, maxElements: 0n, minSize, fields, at };
  decl.type = { kind: 'object', name: 'object', decl };
  return decl;
}

/** Typed strings have the size of their longest JSON text; other strings their maxLength in bytes (4 a rune), else their longest enum value, else a request's. */
function stringDecl(schema: Node, at: string): Decl {
  const maxLength = bound(schema.maxLength);
  switch (schema.format) {
    case 'byte':
      return maxLength === undefined
        ? { type: { kind: 'bytes' }, maxElements: MAX_STRING, minSize: 2n, unbounded: 'maxLength', at }
        : { type: { kind: 'bytes' }, maxElements: maxLength, minSize: 2n, at };
    case 'duration':
      return { type: { kind: 'duration' }, maxElements: 32n, minSize: 3n, at };
    case 'date':
      return { type: { kind: 'timestamp' }, maxElements: 12n, minSize: 12n, at };
    case 'date-time':
      return { type: { kind: 'timestamp' }, maxElements: 32n, minSize: 21n, at };
  }
  if (maxLength !== undefined) return { ...simple('string', 2n, at), maxElements: maxLength * 4n };
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const longest = schema.enum.reduce<number>(
      (most, value) => (typeof value === 'string' ? Math.max(most, Buffer.byteLength(value)) : most),
      0,
    );
    return { ...simple('string', 2n, at), maxElements: BigInt(longest) };
  }
  return { ...simple('string', 2n, at), maxElements: MAX_STRING, unbounded: 'maxLength' };
}

/** How many times a node may occur in a request when the lists and maps above it are unbounded (compilation.go's maxCardinality). */
export const cardinalityOf = (decl: Decl): bigint => MAX_REQUEST_BYTES / (decl.minSize + 1n);

/**
 * The sizeEstimator of compilation.go: the Decl a path from `self` leads to (`@items`, `@values`,
 * `@keys` or a member), the first step (the variable) ignored as Go ignores it; else undefined.
 */
export function declAt(root: Decl, path: readonly string[]): Decl | undefined {
  let node: Decl | undefined = root;
  for (const step of path.slice(1)) {
    if (step === '@items' || step === '@values') node = node.elem;
    else if (step === '@keys') node = node.key;
    else node = node.fields?.get(step);
    if (node === undefined) return undefined;
  }
  return node;
}

/** computeExprSize: a literal's size (runes of a string, bytes, 1 for a scalar) or a list's or map's entries. */
export function literalSize(e: Expr): Range | undefined {
  const kind = e.exprKind;
  if (kind.case === 'listExpr') return fixed(BigInt(kind.value.elements.length));
  if (kind.case === 'structExpr' && !(kind.value as { messageName?: string }).messageName) return fixed(BigInt(kind.value.entries.length));
  if (kind.case !== 'constExpr') return undefined;
  const constant = (kind.value as { constantKind?: { case?: string; value?: unknown } }).constantKind;
  switch (constant?.case) {
    case 'stringValue':
      return fixed(BigInt([...(constant.value as string)].length));
    case 'bytesValue':
      return fixed(BigInt((constant.value as Uint8Array).length));
    case 'boolValue':
    case 'doubleValue':
    case 'int64Value':
    case 'uint64Value':
    case 'nullValue':
      return fixed(1n);
    default:
      return undefined;
  }
}
