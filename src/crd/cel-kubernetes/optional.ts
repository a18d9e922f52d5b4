/**
 * CEL's optional values (cel-go's OptionalTypes, in Kubernetes' CRD environment since 1.28): the
 * functions optional.of(), optional.ofNonZeroValue(), optional.none(), hasValue(), value(), or(),
 * orValue(), first(), last(), optional.unwrap() and unwrapOpt(), which the format library's
 * results need. The syntax (`.?`, `[?]`) and the optMap/optFlatMap macros @bufbuild/cel's parser
 * does not have; or() and orValue() evaluate their argument, where cel-go skips it.
 */
import type { CelList, CelMap, CelValue } from '@bufbuild/cel';
import { type CelRuntime, celKey, type Library, type OpaqueType } from './opaque.js';

/** What an optional holds: nothing, or a value. */
type Held = { value: CelValue } | undefined;

/** The maker and reader of optional values, for the libraries that return some. */
export function optionals(runtime: CelRuntime, type: OpaqueType<unknown>) {
  return {
    some: (value: CelValue) => type.of(`some ${celKey(value, runtime)}`, { value }),
    none: () => type.of('none', undefined),
    held: (optional: CelValue) => type.value(optional) as Held,
  };
}

/** Zeroer.IsZeroValue: false, 0, "", empty bytes, lists and maps, null, a zero duration. */
function isZero(value: CelValue, runtime: CelRuntime): boolean {
  const { cel, reflect, wkt } = runtime;
  if (value === null || value === false || value === '' || value === 0n || value === 0) return true;
  if (value instanceof Uint8Array) return value.length === 0;
  if (cel.isCelUint(value)) return value.value === 0n;
  if (cel.isCelList(value) || cel.isCelMap(value)) return (value as CelList | CelMap).size === 0;
  if (reflect.isReflectMessage(value, wkt.DurationSchema)) {
    const duration = value.message as unknown as { seconds: bigint; nanos: number };
    return duration.seconds === 0n && duration.nanos === 0;
  }
  return false;
}

export const optionalLibrary: Library = (runtime, types) => {
  const { cel } = runtime;
  const { celFunc, celMethod, listType } = cel;
  const { BOOL, DYN } = cel.CelScalar;
  const OPTIONAL = types.optional_type;
  const { some, none, held } = optionals(runtime, OPTIONAL);
  const LIST = listType(DYN);
  const unwrap = (list: CelList) =>
    [...list].flatMap((item) => {
      if (runtime.reflect.isReflectMessage(item) && item.desc.typeName === OPTIONAL.type.name) {
        const inner = held(item);
        return inner === undefined ? [] : [inner.value];
      }
      throw new Error(`value ${String(item)} is not optional`);
    });
  return [
    celFunc('optional.of', [DYN], OPTIONAL.type, (value) => some(value)),
    celFunc('optional.ofNonZeroValue', [DYN], OPTIONAL.type, (value) => (isZero(value, runtime) ? none() : some(value))),
    celFunc('optional.none', [], OPTIONAL.type, () => none()),
    celMethod('hasValue', OPTIONAL.type, [], BOOL, function () {
      return held(this) !== undefined;
    }),
    celMethod('value', OPTIONAL.type, [], DYN, function () {
      const inner = held(this);
      if (inner === undefined) throw new Error('optional.none() dereference');
      return inner.value;
    }),
    celMethod('or', OPTIONAL.type, [OPTIONAL.type], OPTIONAL.type, function (other) {
      return held(this) === undefined ? other : this;
    }),
    celMethod('orValue', OPTIONAL.type, [DYN], DYN, function (other) {
      const inner = held(this);
      return inner === undefined ? other : inner.value;
    }),
    celMethod('first', LIST, [], OPTIONAL.type, function () {
      return this.size === 0 ? none() : some(this.get(0)!);
    }),
    celMethod('last', LIST, [], OPTIONAL.type, function () {
      return this.size === 0 ? none() : some(this.get(this.size - 1)!);
    }),
    celFunc('optional.unwrap', [LIST], LIST, (list) => unwrap(list)),
    celMethod('unwrapOpt', LIST, [], LIST, function () {
      return unwrap(this);
    }),
  ];
};
