/**
 * What one call costs when a rule runs, as the API server's cost tracker counts it: Kubernetes'
 * CallCost (apiserver pkg/cel/library/cost.go) by function name, the sets extension's trackers,
 * then cel-go's (interpreter/runtimecost.go) by the overload the values select; 1 for any other.
 * Sizes are CEL's: runes of a string, bytes, elements, entries; 1 for any other value.
 */
import type { CelValue } from '@bufbuild/cel';
import { NOMINAL, PARSES, TRAVERSES } from './cel-cost-kubernetes.js';
import { celLibrary } from './cel-library.js';
import { runes } from './cel-strings.js';

const TRAVERSAL = 0.1;
const REGEX = 0.25;

/** A Kubernetes library value (net.IP, kubernetes.Quantity …): a message of that type name, holding its key. */
type Held = { desc: { typeName: string }; message: { key?: unknown } };
const held = (value: unknown): Held | undefined => {
  const candidate = value as Partial<Held> | null;
  return typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.desc?.typeName === 'string' &&
    typeof candidate.message === 'object'
    ? (candidate as Held)
    : undefined;
};
const KUBERNETES_TYPES = new Set([
  'net.IP',
  'net.CIDR',
  'kubernetes.URL',
  'kubernetes.Quantity',
  'kubernetes.NamedFormat',
  'kubernetes.Semver',
]);

/** Each named format's longest regex (library/format.go's MaxRegexSize). */
const FORMAT_REGEX: Record<string, number> = {
  DNS1123Label: 30,
  DNS1123Subdomain: 60,
  DNS1035Label: 30,
  QualifiedName: 60,
  DNS1123LabelPrefix: 30,
  DNS1123SubdomainPrefix: 60,
  DNS1035LabelPrefix: 30,
  LabelValue: 40,
  URI: 1103,
  uuid: 70,
  byte: 84,
  date: 71,
  datetime: 71,
};

/** actualSize: a value's size when it has one (traits.Sizer), else 1. */
export function actualSize(value: unknown): number {
  if (typeof value === 'string') return runes(value);
  if (value instanceof Uint8Array) return value.length;
  const { cel } = celLibrary();
  if (cel.isCelList(value) || cel.isCelMap(value)) return (value as { size: number }).size;
  return 1;
}

/** traversalCost: a walk of the value, strings by their UTF-8 bytes, rounded down; 1 a scalar. */
function traversal(value: unknown): number {
  if (typeof value === 'string') return Math.floor(Buffer.byteLength(value) * TRAVERSAL);
  if (value instanceof Uint8Array) return Math.floor(value.length * TRAVERSAL);
  const { cel } = celLibrary();
  if (cel.isCelList(value)) {
    let cost = 0;
    for (const item of value as Iterable<unknown>) cost += traversal(item);
    return cost;
  }
  if (cel.isCelMap(value)) {
    let cost = 0;
    for (const [key, item] of value as Iterable<[unknown, unknown]>) cost += traversal(key) + traversal(item);
    return cost;
  }
  return 1;
}

const scaled = (value: unknown, factor = TRAVERSAL) => Math.ceil(actualSize(value) * factor);
const regexCost = (text: unknown, patternSize: number) => Math.ceil((1 + actualSize(text)) * TRAVERSAL) * Math.ceil(patternSize * REGEX);
const isSized = (value: unknown) => typeof value === 'string' || value instanceof Uint8Array;

/** Kubernetes' CallCost; undefined where it has none. `args` has a member call's target first. */
function kubernetesCost(fn: string, args: CelValue[]): number | undefined {
  const [a, b] = args;
  if (NOMINAL.has(fn)) return 1;
  if (TRAVERSES.has(fn)) return args.length > 0 ? traversal(a) : 0;
  if (PARSES.has(fn)) return args.length >= 1 ? scaled(a) : undefined;
  switch (fn) {
    case 'url':
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
      return args.length >= 1 ? scaled(a) : undefined;
    case 'replace':
    case 'split':
    case 'ip.isCanonical':
      return args.length >= 1 ? scaled(a, 2 * TRAVERSAL) : undefined;
    case 'find':
    case 'findAll':
      return args.length >= 2 ? regexCost(a, actualSize(b)) : undefined;
    case 'ip':
      // cidr.ip() reads a member; ip(string) parses.
      return args.length >= 1 ? (typeof a === 'string' ? scaled(a) : 1) : undefined;
    case 'containsIP':
    case 'containsCIDR': {
      if (args.length < 2) return undefined;
      const cidr = actualSize(a);
      let cost = Math.ceil((cidr + cidr) * TRAVERSAL);
      if (fn === 'containsCIDR') cost += Math.ceil(cidr * TRAVERSAL) + 1;
      return typeof b === 'string' ? cost + scaled(b) : cost;
    }
    case 'validate': {
      const format = held(a);
      const size = format?.desc.typeName === 'kubernetes.NamedFormat' ? FORMAT_REGEX[String(format.message.key)] : undefined;
      return size === undefined || args.length < 2 ? undefined : regexCost(b, size);
    }
    case '_==_': {
      const type = held(a)?.desc.typeName;
      return args.length === 2 && type !== undefined && KUBERNETES_TYPES.has(type) ? 1 : undefined;
    }
  }
  return undefined;
}

const SETS: Record<string, number> = { 'sets.contains': 1, 'sets.intersects': 1, 'sets.equivalent': 2 };
const COMPARISONS = new Set(['_<_', '_<=_', '_>_', '_>=_']);

/**
 * The cost of calling `fn` on `args` (a member call's target first), from the arguments alone:
 * charged before the call runs, so that a call over the limit never builds its result. join, the
 * one call priced by its result, is priced by resultCost after it.
 */
export function callCost(fn: string, member: boolean, args: CelValue[]): number {
  const kubernetes = kubernetesCost(fn, args);
  if (kubernetes !== undefined) return kubernetes;
  const [a, b] = args;
  if (SETS[fn] !== undefined && args.length === 2) return 1 + Math.floor(actualSize(a) * actualSize(b) * SETS[fn]!);
  const { cel } = celLibrary();
  switch (fn) {
    case 'startsWith':
    case 'endsWith':
    case 'strings.quote':
    case 'format':
      return scaled(a);
    case 'string':
      return b === undefined && a instanceof Uint8Array ? scaled(a) : 1;
    case 'bytes':
      return b === undefined && typeof a === 'string' ? scaled(a) : 1;
    case '@in':
      return cel.isCelList(b) ? actualSize(b) : 1;
    case '_==_':
    case '_!=_':
      return Math.ceil(Math.min(actualSize(a), actualSize(b)) * TRAVERSAL);
    case '_+_':
      return isSized(a) && isSized(b) ? Math.ceil((actualSize(a) + actualSize(b)) * TRAVERSAL) : 1;
    case 'matches':
      return member ? regexCost(a, actualSize(b)) : 1;
    case 'contains':
      return member && typeof a === 'string' ? scaled(a) * scaled(b) : 1;
  }
  if (COMPARISONS.has(fn) && isSized(a) && isSized(b)) return Math.ceil(Math.min(actualSize(a), actualSize(b)) * TRAVERSAL);
  return fn === 'join' ? 0 : 1;
}

/** join is priced by the string it made (twice its traversal). */
export const resultCost = (fn: string, result: unknown): number => (fn === 'join' ? scaled(result, 2 * TRAVERSAL) : 0);
