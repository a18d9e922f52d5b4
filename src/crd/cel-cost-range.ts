/**
 * cel-go's SizeEstimate and CostEstimate (checker/cost.go): ranges of uint64 that saturate at
 * 2^64-1 rather than overflow, and the cost factors of common/cost.go. Bigints, since an estimate
 * over unbounded data reaches 2^64-1 and must compare exactly with the API server's.
 */

export const MAX_UINT64 = (1n << 64n) - 1n;

/** A size (runes, bytes, elements, entries) or a cost, from min to max. */
export interface Range {
  min: bigint;
  max: bigint;
}

export const STRING_TRAVERSAL_FACTOR = 0.1;
export const REGEX_LENGTH_FACTOR = 0.25;
export const SELECT_AND_IDENT_COST = 1n;
export const LIST_CREATE_COST = 10n;
export const MAP_CREATE_COST = 30n;
export const STRUCT_CREATE_COST = 40n;

export const fixed = (value: bigint): Range => ({ min: value, max: value });
export const UNKNOWN: Range = { min: 0n, max: MAX_UINT64 };
export const ZERO: Range = fixed(0n);
export const ONE: Range = fixed(1n);

export const addU = (x: bigint, y: bigint): bigint => (y > 0n && x > MAX_UINT64 - y ? MAX_UINT64 : x + y);
/** Go's uint64 arithmetic where cost.go does not saturate: it wraps. */
export const wrapU = (value: bigint): bigint => value & MAX_UINT64;
export const mulU = (x: bigint, y: bigint): bigint => (y !== 0n && x > MAX_UINT64 / y ? MAX_UINT64 : x * y);

// Go's math.MaxUint64 as a float64 constant, and 2^64.
const MAX_FLOAT = 18446744073709551615;
const TWO_TO_64 = 2 ** 64;

/** multiplyByCostFactor: x (as Go converts a uint64 to float64) times y, rounded up, saturated. */
export function factorU(x: bigint, y: number): bigint {
  const xf = Number(x); // rounds to nearest, ties to even, as Go's conversion does
  if (xf > 0 && y > 0 && xf > MAX_FLOAT / y) return MAX_UINT64;
  const ceil = Math.ceil(xf * y);
  return ceil >= TWO_TO_64 ? MAX_UINT64 : BigInt(ceil);
}

/** Go's uint64(f) on amd64, for a float past the range: 2^63. */
export const toUint64 = (f: number): bigint => (f >= TWO_TO_64 ? 1n << 63n : BigInt(f));

export const add = (a: Range, b: Range): Range => ({ min: addU(a.min, b.min), max: addU(a.max, b.max) });
export const multiply = (a: Range, b: Range): Range => ({ min: mulU(a.min, b.min), max: mulU(a.max, b.max) });
export const byFactor = (a: Range, factor: number): Range => ({ min: factorU(a.min, factor), max: factorU(a.max, factor) });
export const union = (a: Range, b: Range): Range => ({
  min: b.min < a.min ? b.min : a.min,
  max: b.max > a.max ? b.max : a.max,
});
export const sum = (ranges: readonly Range[]): Range => ranges.reduce(add, ZERO);
