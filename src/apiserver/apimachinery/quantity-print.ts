/**
 * How Go prints a resource.Quantity in a field error: its String (the cached text or the canonical
 * form), its Value (an int64, rounded up, wrapping as Go's arithmetic wraps) and its %#v struct.
 * Apart from quantity.ts, which holds what parsing and defaulting make of one.
 */
import { goQuote } from '../golang/strconv.js';
import {
  BINARY_SUFFIXES,
  DECIMAL_SUFFIXES,
  type Dec,
  MATERIALIZED_ZEROS,
  MAX_INT64,
  MIN_INT64,
  type Quantity,
  asDec,
  compareDec,
  fitsInt64,
  negativeScale,
  positiveScaleInt64,
  pow10,
  removeFactors,
  roundDec,
  sign,
} from './quantity.js';

/** Quantity.Value: rounded up to an int64, with the wrap-arounds of Go's int64 arithmetic. */
export function quantityValue(q: Quantity): bigint {
  if (q.d === undefined) return q.i.scale < 0 ? negativeScale(q.i.value, -q.i.scale)[0] : positiveScaleInt64(q.i.value, q.i.scale)[0];
  const { unscaled, scale } = q.d;
  if (unscaled === 0n) return 0n;
  if (q.d.goScale !== undefined) return compactValue(q.d, q.d.goScale);
  if (scale === 0) return BigInt.asIntN(64, unscaled);
  if (scale < 0) return BigInt.asIntN(64, BigInt.asIntN(64, unscaled) * pow10(-scale));
  if (unscaled < MAX_INT64 && scale < 19) {
    const low = BigInt.asIntN(64, unscaled);
    const divisor = pow10(scale);
    return low / divisor + (low % divisor !== 0n ? 1n : 0n);
  }
  const divisor = pow10(scale);
  const remainder = ((unscaled % divisor) + divisor) % divisor;
  return BigInt.asIntN(64, BigInt.asIntN(64, (unscaled - remainder) / divisor) + (remainder !== 0n ? 1n : 0n));
}

/**
 * scaledValue of a Dec whose Go unscaled ends in more than MATERIALIZED_ZEROS zeros: 0 in its low 64
 * bits, which is all Int64() keeps, so every branch that reads it answers 0. The one that divides
 * by 10^goScale first reads the value's whole part, rounded up, as quantityValue does.
 */
function compactValue({ unscaled, scale }: Dec, goScale: number): bigint {
  if (goScale <= 0 || (unscaled < 0n && goScale < 19)) return 0n;
  if (scale <= 0) return -scale >= MATERIALIZED_ZEROS ? 0n : BigInt.asIntN(64, unscaled * pow10(-scale));
  const divisor = pow10(scale);
  const remainder = ((unscaled % divisor) + divisor) % divisor;
  return BigInt.asIntN(64, BigInt.asIntN(64, (unscaled - remainder) / divisor) + (remainder !== 0n ? 1n : 0n));
}

/** AsCanonicalBytes: a mantissa and a base-10 exponent that is a multiple of 3. */
function canonicalDecimal(q: Quantity): [bigint, number] {
  if (q.d === undefined) {
    const [amount, times] = removeFactors(q.i.value, 10n);
    const exponent = q.i.scale + times;
    const shift = exponent % 3 === 1 || exponent % 3 === -2 ? 1 : exponent % 3 === 2 || exponent % 3 === -1 ? 2 : 0;
    const shifted = amount * pow10(shift);
    if (fitsInt64(shifted)) return [shifted, exponent - shift];
  }
  const dec = asDec(q);
  let [amount, exponent] = removeFactors(dec.unscaled, 10n);
  exponent -= dec.scale;
  while (exponent % 3 !== 0) ((amount *= 10n), exponent--);
  return [amount, exponent];
}

const DECIMAL_NAMES = new Map(Object.entries(DECIMAL_SUFFIXES).map(([name, exponent]) => [exponent, name]));
const BINARY_NAMES = new Map(Object.entries(BINARY_SUFFIXES).map(([name, exponent]) => [exponent, name]));

/** Quantity.AsScale(0): the value as a whole number, or undefined where that rounds it. */
function asWhole(q: Quantity): Quantity | undefined {
  if (q.d !== undefined) {
    const whole = roundDec(q.d, 0);
    return compareDec(whole, q.d) === 0 ? { ...q, d: whole } : undefined;
  }
  if (q.i.scale >= 0) return q;
  const [value, exact] = negativeScale(q.i.value, -q.i.scale);
  return exact ? { ...q, i: { value, scale: 0 } } : undefined;
}

/** Quantity.String: the cached text, else the canonical form (CanonicalizeBytes). */
export function quantityString(q: Quantity): string {
  if (q.s !== '') return q.s;
  if (sign(q) === 0) return '0';
  let format = q.format;
  let rounded: Quantity | undefined;
  if (format === 'BinarySI') {
    const dec = asDec(q);
    const small = compareDec(dec, { unscaled: -1024n, scale: 0 }) > 0 && compareDec(dec, { unscaled: 1024n, scale: 0 }) < 0;
    // Below 1Ki, or where a whole number would round the value, the binary form would mislead.
    rounded = small ? undefined : asWhole(q);
    if (rounded === undefined) format = 'DecimalSI';
  }
  if (format !== 'BinarySI') {
    const [number, exponent] = canonicalDecimal(q);
    const suffix = format === 'DecimalSI' ? (DECIMAL_NAMES.get(exponent) ?? '') : exponent === 0 ? '' : `e${exponent}`;
    return `${number}${suffix}`;
  }
  const [whole, fits] = rounded!.d === undefined ? positiveScaleInt64(rounded!.i.value, rounded!.i.scale) : [0n, false];
  const value = fits ? whole : roundDec(asDec(rounded!), 0).unscaled;
  const [number, exponent] = removeFactors(value, 1024n);
  return `${number}${BINARY_NAMES.get(exponent * 10) ?? ''}`;
}

/** The quantity as %#v prints it; an inf.Dec's address is the runtime's, so any one stands for it. */
export function quantityGoSyntax(q: Quantity): string {
  const dec = q.d === undefined ? '(*inf.Dec)(nil)' : '(*inf.Dec)(0xc000012345)';
  return (
    `resource.Quantity{i:resource.int64Amount{value:${q.i.value}, scale:${q.i.scale}}, ` +
    `d:resource.infDecAmount{Dec:${dec}}, s:${goQuote(q.s)}, Format:${goQuote(q.format)}}`
  );
}
