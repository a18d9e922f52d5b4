/**
 * resource.Quantity's arithmetic and conversions (Add, Sub, Cmp, AsInt64, AsApproximateFloat64), as
 * Kubernetes' CEL quantity library runs them. The result keeps Go's representation (int64 or inf.Dec,
 * scale, format), which its String depends on (quantity-print.ts).
 */
import {
  type Dec,
  type Quantity,
  asDec,
  compareDec,
  decAt,
  fitsInt64,
  pow10,
  positiveScaleInt64,
  removeFactors,
  sign,
} from './quantity.js';

type Int64Amount = Quantity['i'];

/** int64Amount.Add: the sum, or undefined where it does not fit an int64 (Go then adds as inf.Dec). */
function addAmounts(a: Int64Amount, b: Int64Amount): Int64Amount | undefined {
  if (b.value === 0n) return a;
  if (a.value === 0n) return b;
  let [x, y, scale] = [a.value, b.value, a.scale];
  if (a.scale > b.scale) {
    const [scaled, ok] = positiveScaleInt64(a.value, a.scale - b.scale);
    if (!ok) return undefined;
    [x, scale] = [scaled, b.scale];
  } else if (a.scale < b.scale) {
    const [scaled, ok] = positiveScaleInt64(b.value, b.scale - a.scale);
    if (!ok) return undefined;
    y = scaled;
  }
  return fitsInt64(x + y) ? { value: x + y, scale } : undefined;
}

/**
 * The most digits one sum writes out to line two numbers up: Go adds 1e99999 and 1 in a few
 * milliseconds, but 1e2000000000 and 1 never (it writes 2 billion digits), and neither would we.
 */
export const MAX_ADDED_DIGITS = 1_000_000;

/** inf.Dec's Add: exact, at the larger of the two scales. */
function addDecs(a: Dec, b: Dec): Dec {
  const scale = Math.max(a.scale, b.scale);
  if (Math.abs(a.scale - b.scale) > MAX_ADDED_DIGITS)
    throw new Error(`quantities ${MAX_ADDED_DIGITS} or more decimal places apart are not added here`);
  const sum = a.unscaled * pow10(scale - a.scale) + b.unscaled * pow10(scale - b.scale);
  return decAt(sum, scale, Math.max(a.goScale ?? a.scale, b.goScale ?? b.scale));
}

const asDecimal = (q: Quantity, dec: Dec): Quantity => ({ ...q, i: { value: 0n, scale: 0 }, d: dec });

/** Quantity.Add on a copy of `q`: an int64 sum while both are int64 and it fits, else an inf.Dec one. */
export function addQuantities(q: Quantity, y: Quantity): Quantity {
  const out: Quantity = { ...q, s: '' };
  if (q.d === undefined && y.d === undefined) {
    if (q.i.value === 0n) out.format = y.format;
    const sum = addAmounts(q.i, y.i);
    if (sum !== undefined) return { ...out, i: sum };
  } else if (sign(q) === 0) out.format = y.format;
  return asDecimal(out, addDecs(asDec(q), asDec(y)));
}

/** Quantity.Sub on a copy of `q` (int64Amount.Sub negates as Go's int64 does: -MinInt64 wraps to itself). */
export function subQuantities(q: Quantity, y: Quantity): Quantity {
  const out: Quantity = { ...q, s: '' };
  if (sign(q) === 0) out.format = y.format;
  if (q.d === undefined && y.d === undefined) {
    const difference = addAmounts(q.i, { value: BigInt.asIntN(64, -y.i.value), scale: y.i.scale });
    if (difference !== undefined) return { ...out, i: difference };
  }
  const subtrahend = asDec(y);
  return asDecimal(out, addDecs(asDec(q), { ...subtrahend, unscaled: -subtrahend.unscaled }));
}

/** resource.NewQuantity(value, DecimalExponent): what `add(int)` and `sub(int)` add. */
export const int64Quantity = (value: bigint): Quantity => ({ i: { value, scale: 0 }, s: '', format: 'DecimalExponent' });

/** Quantity.Cmp: -1, 0 or 1, exactly. */
export const compareQuantities = (q: Quantity, y: Quantity): number => compareDec(asDec(q), asDec(y));

/** Quantity.AsInt64: the int64 value, or undefined for an inf.Dec, a fraction or what does not fit. */
export function quantityAsInt64(q: Quantity): bigint | undefined {
  if (q.d !== undefined || q.i.scale < 0) return undefined;
  const [value, ok] = positiveScaleInt64(q.i.value, q.i.scale);
  return ok ? value : undefined;
}

// math.Pow10's tables: Go's float64 constants, which JavaScript's number literals round alike.
const POW10 = Array.from({ length: 32 }, (_, i) => Number(`1e${i}`));
const POW10_POS32 = Array.from({ length: 10 }, (_, i) => Number(`1e${32 * i}`));
const POW10_NEG32 = Array.from({ length: 11 }, (_, i) => Number(`1e-${32 * i}`));

/** math.Pow10: a table product, so its last bit is Go's, which 10 ** n does not promise. */
function goPow10(n: number): number {
  if (n >= 0 && n <= 308) return POW10_POS32[Math.floor(n / 32)]! * POW10[n % 32]!;
  if (n < 0 && n >= -323) return POW10_NEG32[Math.floor(-n / 32)]! / POW10[-n % 32]!;
  return n > 0 ? Infinity : 0;
}

/** Quantity.AsApproximateFloat64: the mantissa as a float64 times 10^exponent. */
export function quantityAsFloat(q: Quantity): number {
  const [base, exponent] = q.d === undefined ? [Number(q.i.value), q.i.scale] : [goUnscaledFloat(q.d), -(q.d.goScale ?? q.d.scale)];
  return exponent === 0 ? base : base * goPow10(exponent);
}

/** Go's unscaled as the nearest float64: ±Inf past 309 digits, so only a shorter one is written out. */
function goUnscaledFloat({ unscaled, scale, goScale = scale }: Dec): number {
  if (goScale - scale > 309 && unscaled !== 0n) return unscaled < 0n ? -Infinity : Infinity;
  return Number(unscaled * pow10(goScale - scale));
}

/** A key equal for equal quantities (Quantity.Equal compares values): the value with no trailing zeros. */
export function quantityKey(q: Quantity): string {
  const { unscaled, scale } = asDec(q);
  if (unscaled === 0n) return '0';
  const [digits, zeros] = removeFactors(unscaled, 10n);
  return `${digits}e${zeros - scale}`;
}
