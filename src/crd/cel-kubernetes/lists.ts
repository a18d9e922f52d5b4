/**
 * Kubernetes' CEL lists library (k8s.io/apiserver/pkg/cel/library/lists.go): isSorted(), sum(),
 * min(), max(), and indexOf()/lastIndexOf() of a list element. Orders and sums are cel-go's:
 * numbers compare across int, uint and double, strings by their UTF-8 bytes; an int or uint sum
 * that overflows is an error. Go picks sum's zero by the list's declared type, which values do not
 * carry here: an empty list sums to int 0 (equal to 0.0, but typed int).
 */
import type { CelList, CelValue } from '@bufbuild/cel';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import { type CelRuntime, celEquals, type Library } from './opaque.js';

const NO_OVERLOAD = 'no such overload';

/** The instant or span of a Timestamp or Duration message, in nanoseconds. */
const nanos = (message: ReflectMessage): bigint => {
  const { seconds, nanos } = message.message as unknown as { seconds: bigint; nanos: number };
  return seconds * 1_000_000_000n + BigInt(nanos);
};

/** What kind of value cel-go would order or add it as; undefined for one it cannot (no Comparer). */
function kind(value: CelValue, runtime: CelRuntime): string | undefined {
  const { cel, reflect, wkt } = runtime;
  if (typeof value === 'bigint' || typeof value === 'number' || cel.isCelUint(value)) return 'number';
  if (typeof value === 'string' || typeof value === 'boolean') return typeof value;
  if (value instanceof Uint8Array) return 'bytes';
  if (reflect.isReflectMessage(value, wkt.DurationSchema)) return 'duration';
  if (reflect.isReflectMessage(value, wkt.TimestampSchema)) return 'timestamp';
  return undefined;
}

const sign = (difference: bigint | number) => (difference < 0 ? -1 : difference > 0 ? 1 : 0);

/** traits.Comparer.Compare: -1, 0 or 1; undefined where Go's answer is an error (NaN, two kinds), which callers ignore. */
function compare(a: CelValue, b: CelValue, runtime: CelRuntime): number | undefined {
  const [ka, kb] = [kind(a, runtime), kind(b, runtime)];
  if (ka !== kb) return undefined;
  switch (ka) {
    case 'number': {
      const [x, y] = [a, b].map((n) => (runtime.cel.isCelUint(n) ? n.value : n)) as Array<bigint | number>;
      if (Number.isNaN(x) || Number.isNaN(y)) return undefined;
      return x! < y! ? -1 : x! > y! ? 1 : 0;
    }
    case 'string':
      return Buffer.compare(Buffer.from(a as string), Buffer.from(b as string));
    case 'bytes':
      return Buffer.compare(a as Uint8Array, b as Uint8Array);
    case 'boolean':
      return Number(a) - Number(b);
    default:
      return sign(nanos(a as ReflectMessage) - nanos(b as ReflectMessage));
  }
}

const MAX_INT64 = 2n ** 63n - 1n;

/** A Duration message of `total` nanoseconds. */
function duration(total: bigint, runtime: CelRuntime): CelValue {
  const { reflect, protobuf, wkt } = runtime;
  const value = { seconds: total / 1_000_000_000n, nanos: Number(total % 1_000_000_000n) };
  return reflect.reflect(wkt.DurationSchema, protobuf.create(wkt.DurationSchema, value));
}

/** Adds `b` to `a` as cel-go's Adder does for the kinds sum() takes. */
function add(a: CelValue, b: CelValue, runtime: CelRuntime): CelValue {
  const { cel } = runtime;
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    if (a + b > MAX_INT64 || a + b < -MAX_INT64 - 1n) throw new Error('integer overflow');
    return a + b;
  }
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (cel.isCelUint(a) && cel.isCelUint(b)) {
    if (a.value + b.value >= 2n ** 64n) throw new Error('unsigned integer overflow');
    return cel.celUint(a.value + b.value);
  }
  if (kind(a, runtime) === 'duration' && kind(b, runtime) === 'duration') {
    const total = nanos(a as ReflectMessage) + nanos(b as ReflectMessage);
    if (total > MAX_INT64 || total < -MAX_INT64 - 1n) throw new Error('integer overflow');
    return duration(total, runtime);
  }
  throw new Error(NO_OVERLOAD);
}

/** The elements in order, each checked when reached to be one cel-go can order (else "no such overload", as in Go). */
function* comparable(list: CelList, runtime: CelRuntime): Generator<CelValue> {
  for (const item of list) {
    if (kind(item, runtime) === undefined) throw new Error(NO_OVERLOAD);
    yield item;
  }
}

export const listsLibrary: Library = (runtime) => {
  const { cel } = runtime;
  const { celMethod, listType } = cel;
  const { BOOL, DYN, INT } = cel.CelScalar;
  const LIST = listType(DYN);
  const equals = celEquals(runtime);
  /** min() or max(): the first element no later one is preferred to (`prefer`: the order that replaces it). */
  const extreme = (name: string, prefer: number) =>
    celMethod(name, LIST, [], DYN, function () {
      let result: CelValue | undefined;
      for (const next of comparable(this, runtime)) if (result === undefined || compare(result, next, runtime) === prefer) result = next;
      if (result === undefined) throw new Error(`${name} called on empty list`);
      return result;
    });
  const find = (name: string, from: 'first' | 'last') =>
    celMethod(name, LIST, [DYN], INT, function (item) {
      const items = [...this];
      const order = from === 'first' ? items.keys() : [...items.keys()].reverse();
      for (const index of order) if (equals(items[index]!, item)) return BigInt(index);
      return -1n;
    });
  return [
    celMethod('isSorted', LIST, [], BOOL, function () {
      let previous: CelValue | undefined;
      for (const next of comparable(this, runtime)) {
        if (previous !== undefined && compare(previous, next, runtime) === 1) return false;
        previous = next;
      }
      return true;
    }),
    celMethod('sum', LIST, [], DYN, function () {
      // Go's zero is of the list's declared type; here, of its first element's kind.
      const first = this.get(0);
      const zero =
        typeof first === 'number'
          ? 0
          : cel.isCelUint(first)
            ? cel.celUint(0n)
            : first !== undefined && kind(first, runtime) === 'duration'
              ? duration(0n, runtime)
              : 0n;
      return [...this].reduce((sum: CelValue, next) => add(sum, next, runtime), zero);
    }),
    extreme('min', 1),
    extreme('max', -1),
    find('indexOf', 'first'),
    find('lastIndexOf', 'last'),
  ];
};
