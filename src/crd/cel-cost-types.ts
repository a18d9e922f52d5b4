/**
 * The CEL types cel-go's checker gives, as far as the cost estimate reads them: whether a value is
 * of fixed size (a scalar), a list, map or object (a select on those costs 1), Kubernetes' own
 * types (whose equality is priced apart), and a schema node as the estimate sees it (its Decl, made by
 * cel-cost-sizes.ts: an object type holds its Decl, so the two are declared together). Calls are
 * typed in cel-cost-signatures.ts.
 */

type Simple = 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes' | 'null' | 'duration' | 'timestamp' | 'type' | 'dyn' | 'free';

export type CelType =
  | { kind: Simple }
  | { kind: 'list'; elem: CelType }
  | { kind: 'map'; key: CelType; value: CelType }
  /** StructKind: a schema object (with its Decl) or a Kubernetes type such as kubernetes.Quantity. */
  | { kind: 'object'; name: string; decl?: Decl }
  /** OpaqueKind: net.IP, net.CIDR, optional_type. */
  | { kind: 'opaque'; name: string; param?: CelType };

const simple = (kind: Simple): CelType => ({ kind });
export const INT = simple('int');
export const UINT = simple('uint');
export const DOUBLE = simple('double');
export const BOOL = simple('bool');
export const STRING = simple('string');
export const BYTES = simple('bytes');
export const NULL = simple('null');
export const DURATION = simple('duration');
export const TIMESTAMP = simple('timestamp');
export const TYPE = simple('type');
export const DYN = simple('dyn');
/** An empty literal's element type, not yet bound (a type parameter): it takes the type of what it meets. */
export const FREE = simple('free');
export const list = (elem: CelType): CelType => ({ kind: 'list', elem });
export const map = (key: CelType, value: CelType): CelType => ({ kind: 'map', key, value });
export const optional = (param: CelType): CelType => ({ kind: 'opaque', name: 'optional_type', param });
export const QUANTITY: CelType = { kind: 'object', name: 'kubernetes.Quantity' };
export const URL: CelType = { kind: 'object', name: 'kubernetes.URL' };
export const SEMVER: CelType = { kind: 'object', name: 'kubernetes.Semver' };
export const FORMAT: CelType = { kind: 'object', name: 'kubernetes.NamedFormat' };
export const IP: CelType = { kind: 'opaque', name: 'net.IP' };
export const CIDR: CelType = { kind: 'opaque', name: 'net.CIDR' };

/** A type whose values all have size 1 (checker/cost.go's isScalar). */
export function isScalar(type: CelType): boolean {
  switch (type.kind) {
    case 'bool':
    case 'double':
    case 'duration':
    case 'int':
    case 'timestamp':
    case 'uint':
      return true;
    case 'opaque':
      return type.name === 'optional_type' && type.param !== undefined && isScalar(type.param);
    default:
      return false;
  }
}

export const isAny = (type: CelType) => type.kind === 'dyn' || type.kind === 'free';

export function sameType(a: CelType, b: CelType): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'list':
      return sameType(a.elem, (b as typeof a).elem);
    case 'map':
      return sameType(a.key, (b as typeof a).key) && sameType(a.value, (b as typeof a).value);
    case 'object':
      return a.name === (b as typeof a).name && a.decl === (b as typeof a).decl;
    case 'opaque':
      return a.name === (b as typeof a).name && (a.param === undefined || sameType(a.param, (b as typeof a).param ?? DYN));
    default:
      return true;
  }
}

/** The type of a literal's elements, or a conditional's branches: unbound parameters take the other's type, differing ones give dyn. */
export function join(a: CelType, b: CelType): CelType {
  if (a.kind === 'free') return b;
  if (b.kind === 'free') return a;
  if (a.kind === 'list' && b.kind === 'list') return list(join(a.elem, b.elem));
  if (a.kind === 'map' && b.kind === 'map') return map(join(a.key, b.key), join(a.value, b.value));
  return sameType(a, b) ? a : DYN;
}

export type Bound = 'maxItems' | 'maxProperties' | 'maxLength';

/** A schema node as the estimate sees it (apiserver's DeclType). */
export interface Decl {
  type: CelType;
  maxElements: bigint;
  /** The fewest bytes a value takes in JSON (MinSerializedSize). */
  minSize: bigint;
  /** An object's members, by their CEL names. */
  fields?: Map<string, Decl>;
  /** A list's items or a map's values. */
  elem?: Decl;
  /** A map's keys: strings of no estimated size (apiserver's StringType). */
  key?: Decl;
  /** The bound the schema lacks, when maxElements is what fits in a request. */
  unbounded?: Bound;
  /** Where the node is in a manifest, `*` for any element or value: `/spec/items/*`. */
  at: string;
}
