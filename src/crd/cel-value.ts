/**
 * A manifest's values as the API server hands them to x-kubernetes-validations rules: typed by the
 * CRD's schema, not by JSON. An `integer` is a CEL int (bigint) though JSON.parse made it a double,
 * a `number` a double, date-time and date strings timestamps, duration strings durations, byte
 * strings bytes; objects with properties expose their members under CEL-escaped names (`x-y` is
 * `x__dash__y`), maps their keys as they are. Values the schema refuses are marked, so that a rule
 * failing on them is not reported twice (the schema check reports them already).
 */
import type { CelInput } from '@bufbuild/cel';
import { isPlainObject } from '../util/json.js';
import { celLibrary } from './cel-library.js';

type Node = Record<string, unknown>;

const RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

/** A member name as CEL rules write it (Kubernetes' escaping), or undefined when rules cannot name it. */
export function celName(name: string): string | undefined {
  if (name === '' || /^[0-9]/.test(name)) return undefined;
  if (RESERVED.has(name)) return `__${name}__`;
  if (/[^a-zA-Z0-9_./-]/.test(name)) return undefined;
  return name.replace(/__|[./-]/g, (part) => ({ __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' })[part]!);
}

/** The schema of a resource root or an embedded resource: apiVersion, kind, metadata.name and generateName are always there. */
const TYPE_AND_OBJECT_META: Record<string, Node> = {
  apiVersion: { type: 'string' },
  kind: { type: 'string' },
  metadata: { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } },
};
const withMeta = new WeakMap<Node, Node>();

/** The schema as rules see it: a root or embedded resource has its type and object meta added. */
export function withTypeAndObjectMeta(schema: Node): Node {
  let found = withMeta.get(schema);
  if (found === undefined) {
    const properties = isPlainObject(schema.properties) ? schema.properties : {};
    found = { ...schema, type: 'object', properties: { ...properties, ...TYPE_AND_OBJECT_META } };
    withMeta.set(schema, found);
  }
  return found;
}

/** Converts the values of one manifest, each container once (rules at nested nodes share the work). */
export class CelValues {
  // By schema, then value: a rendered manifest may hold one object at two places of different types.
  private readonly converted = new WeakMap<Node, WeakMap<object, { value: CelInput; refused: boolean }>>();
  /** Whether the value last converted, or something in it, is refused by its schema. */
  private lastRefused = false;

  /** The CEL value of `value` at a node of type `schema`. */
  of(value: unknown, schema: Node): CelInput {
    this.lastRefused = false;
    if (typeof value !== 'object' || value === null) return this.convert(value, schema);
    let bySchema = this.converted.get(schema);
    if (bySchema === undefined) this.converted.set(schema, (bySchema = new WeakMap()));
    const cached = bySchema.get(value);
    if (cached !== undefined) {
      this.lastRefused = cached.refused;
      return cached.value;
    }
    const result = this.convert(value, schema);
    bySchema.set(value, { value: result, refused: this.lastRefused });
    return result;
  }

  /** Whether the schema refuses `value` or something in it. */
  isRefused(value: unknown, schema: Node): boolean {
    this.of(value, schema);
    return this.lastRefused;
  }

  private convert(value: unknown, schema: Node): CelInput {
    if (value === null) {
      if (schema.nullable !== true) this.lastRefused = true;
      return null;
    }
    if (schema['x-kubernetes-int-or-string'] === true) {
      if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
      if (typeof value !== 'string') this.lastRefused = true;
      return this.generic(value);
    }
    if (schema['x-kubernetes-embedded-resource'] === true) schema = withTypeAndObjectMeta(schema);
    switch (schema.type) {
      case 'integer':
        if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
        break;
      case 'number':
        if (typeof value === 'number') return value;
        break;
      case 'boolean':
        if (typeof value === 'boolean') return value;
        break;
      case 'string':
        if (typeof value === 'string') {
          const typed = formatted(value, schema.format);
          if (typed === undefined) this.lastRefused = true;
          return typed ?? value;
        }
        break;
      case 'array':
        if (Array.isArray(value)) {
          const items = isPlainObject(schema.items) ? schema.items : {};
          return value.map((item) => this.member(item, items));
        }
        break;
      case 'object':
        if (isPlainObject(value)) return this.object(value, schema);
        break;
      default:
        // No type: x-kubernetes-preserve-unknown-fields, any JSON.
        return this.generic(value);
    }
    this.lastRefused = true;
    return this.generic(value);
  }

  /** A member's value; the container is refused when the member is. */
  private member(value: unknown, schema: Node): CelInput {
    const outer = this.lastRefused;
    const result = this.of(value, schema);
    this.lastRefused ||= outer;
    return result;
  }

  private object(value: Record<string, unknown>, schema: Node): CelInput {
    const out = new Map<string, CelInput>();
    const required = Array.isArray(schema.required) ? schema.required : [];
    for (const name of required) if (typeof name === 'string' && !Object.hasOwn(value, name)) this.lastRefused = true;
    if (isPlainObject(schema.properties)) {
      for (const [name, member] of Object.entries(schema.properties)) {
        const escaped = celName(name);
        if (escaped === undefined || !Object.hasOwn(value, name) || !isPlainObject(member)) continue;
        out.set(escaped, this.member(value[name], member));
      }
    } else if (isPlainObject(schema.additionalProperties)) {
      for (const [name, member] of Object.entries(value)) out.set(name, this.member(member, schema.additionalProperties));
    }
    // An object with neither (x-kubernetes-preserve-unknown-fields) is an empty object to rules, as in Kubernetes.
    return out;
  }

  /** Untyped JSON: integers as ints, as the API server's JSON decoder makes them. */
  private generic(value: unknown): CelInput {
    if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
    if (Array.isArray(value)) return value.map((item) => this.generic(item));
    if (isPlainObject(value)) return new Map(Object.entries(value).map(([key, member]) => [key, this.generic(member)]));
    return value as CelInput;
  }
}

/** A string of a format rules see typed, as that type; the string itself for other formats; undefined when it does not parse. */
function formatted(value: string, format: unknown): CelInput | undefined {
  switch (format) {
    case 'date-time':
    case 'datetime':
      return timestamp(value);
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) ? timestamp(`${value}T00:00:00Z`) : undefined;
    case 'duration':
      return duration(value);
    case 'byte':
      return /^[A-Za-z0-9+/\r\n]*={0,2}$/.test(value) ? new Uint8Array(Buffer.from(value, 'base64')) : undefined;
    default:
      return value;
  }
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

function timestamp(value: string): CelInput | undefined {
  const match = RFC3339.exec(value);
  if (match === null) return undefined;
  const [, date, time, fraction = '', zone] = match;
  const milliseconds = Date.parse(`${date}T${time}${zone!.toUpperCase()}`);
  if (Number.isNaN(milliseconds)) return undefined;
  const { protobuf, wkt } = celLibrary();
  return protobuf.create(wkt.TimestampSchema, {
    seconds: BigInt(milliseconds / 1000),
    nanos: Number(fraction.padEnd(9, '0')),
  }) as unknown as CelInput;
}

const DURATION_UNITS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
  d: 86400e9,
  w: 604800e9,
};

/** Go's time.ParseDuration ("1h30m", "1.5s", "-300ms"), and the days and weeks of OpenAPI's strfmt ("3d"). */
function duration(value: string): CelInput | undefined {
  const match = /^([-+]?)((?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h|d|w))+|0)$/.exec(value.trim());
  if (match === null) return undefined;
  let nanos = 0n;
  for (const [, amount, unit] of match[2]!.matchAll(/(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h|d|w)/g)) {
    const [whole = '0', fraction = ''] = amount!.split('.');
    const scale = BigInt(DURATION_UNITS[unit!]!);
    nanos += BigInt(whole || '0') * scale + (fraction === '' ? 0n : (BigInt(fraction) * scale) / 10n ** BigInt(fraction.length));
  }
  if (match[1] === '-') nanos = -nanos;
  const { protobuf, wkt } = celLibrary();
  return protobuf.create(wkt.DurationSchema, {
    seconds: nanos / 1_000_000_000n,
    nanos: Number(nanos % 1_000_000_000n),
  }) as unknown as CelInput;
}
