/**
 * apimachinery's resource.Quantity as the API server holds one after decoding: the int64 form or
 * the inf.Dec form ParseQuantity picks, the string it caches, and its format. A validator's
 * message prints the quantity's canonical string, its rounded int64 value or its Go struct
 * (%#v), and each of those depends on that representation, not on the number alone, so this is
 * a port of the representation (src/upgrade/quantities.ts compares numbers only). How Go prints
 * one is in quantity-print.ts.
 */
import { goTrimSpace } from '../golang/values.js';

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

/**
 * A decimal `unscaled × 10^-scale`, as inf.Dec (whose scale counts fractional digits). Where Go's
 * inf.Dec holds more digits than the value needs (ParseQuantity rounds 1e99999 to nano units: a
 * 100,009-digit unscaled), `goScale` is Go's scale, its unscaled being `unscaled × 10^(goScale −
 * scale)`; only the few readers that see Go's representation (Value, AsApproximateFloat64) use it.
 */
export interface Dec {
  unscaled: bigint;
  scale: number;
  goScale?: number;
}

export interface Quantity {
  /** int64Amount: `value × 10^scale`; meaningful while `d` is unset. */
  i: { value: bigint; scale: number };
  d?: Dec;
  /** The cached string, as parsed when the text was already canonical; '' when not. */
  s: string;
  format: QuantityFormat;
}

export const MIN_INT64 = -(2n ** 63n);
export const MAX_INT64 = 2n ** 63n - 1n;
export const fitsInt64 = (value: bigint): boolean => value >= MIN_INT64 && value <= MAX_INT64;
export const pow10 = (exponent: number): bigint => 10n ** BigInt(exponent);
const isDigit = (char: string | undefined): boolean => char !== undefined && char >= '0' && char <= '9';

/** parseQuantityString: sign, digits, fraction and suffix, or undefined where Go answers ErrFormatWrong. */
function scan(str: string): { positive: boolean; value: string; num: string; denom: string; suffix: string } | undefined {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (str[0] === '-' || str[0] === '+') {
    positive = str[0] === '+';
    pos++;
  }
  while (str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (isDigit(str[i])) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
  const num = str.slice(pos, i) || '0';
  pos = i;
  let denom = '';
  if (str[pos] === '.') {
    i = ++pos;
    while (isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { positive, value: str, num, denom, suffix: '' };
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && 'eEinumkKMGTP'.includes(str[pos]!)) pos++;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (isDigit(str[pos])) pos++;
  return pos >= end ? { positive, value, num, denom, suffix: str.slice(suffixStart) } : undefined;
}

export const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
export const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** quantitySuffixer.interpret: base, exponent and format of a suffix. */
function interpret(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
  if (Object.hasOwn(DECIMAL_SUFFIXES, suffix)) return { base: 10, exponent: DECIMAL_SUFFIXES[suffix]!, format: 'DecimalSI' };
  if (Object.hasOwn(BINARY_SUFFIXES, suffix)) return { base: 2, exponent: BINARY_SUFFIXES[suffix]!, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?[0-9]+$/.test(suffix.slice(1))) {
    const parsed = BigInt(suffix.slice(1));
    // strconv.ParseInt refuses what int64 cannot hold; the int32 conversion then wraps.
    if (fitsInt64(parsed)) return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: 'DecimalExponent' };
  }
  return undefined;
}

/**
 * Trailing zeros a Dec holds as digits before it keeps them as `goScale` instead: a number that ends
 * in 64 decimal zeros is 0 in its low 64 bits (10^64 = 2^64 × 5^64), all Go's int64 arithmetic keeps.
 */
export const MATERIALIZED_ZEROS = 64;

/** A Dec of the value `unscaled × 10^-scale` that Go holds at `goScale` (≥ scale). */
export function decAt(unscaled: bigint, scale: number, goScale: number): Dec {
  if (unscaled === 0n || goScale === scale) return { unscaled, scale: goScale };
  if (goScale - scale <= MATERIALIZED_ZEROS) return { unscaled: unscaled * pow10(goScale - scale), scale: goScale };
  return { unscaled, scale, goScale };
}

/** inf.Dec's Round with RoundUp: to `scale` fractional digits, away from zero. */
export function roundDec(dec: Dec, scale: number): Dec {
  if (dec.scale <= scale) return decAt(dec.unscaled, dec.scale, scale);
  const away = dec.unscaled === 0n ? 0n : dec.unscaled < 0n ? -1n : 1n;
  // A divisor longer than the number leaves only the rounding: no need to build it.
  if (dec.scale - scale > decimalDigits(dec.unscaled) + 1) return { unscaled: away, scale };
  const divisor = pow10(dec.scale - scale);
  const quotient = dec.unscaled / divisor;
  return { unscaled: quotient + (dec.unscaled % divisor === 0n ? 0n : away), scale };
}

const LOG10_2 = Math.log10(2);
const signOf = (value: bigint): number => (value > 0n ? 1 : value < 0n ? -1 : 0);

/** The number of decimal digits of |value|, within one: from its bits, which base 16 gives in linear time. */
function decimalDigits(value: bigint): number {
  const hex = (value < 0n ? -value : value).toString(16);
  return Math.ceil(((hex.length - 1) * 4 + Math.log2(parseInt(hex[0]!, 16) + 1)) * LOG10_2);
}

/**
 * Cmp, exactly: by sign, then by where each number's leading digit stands, and only for numbers of
 * about the same size by their digits, so 1e99999 is never written out to be compared with 0.
 */
export function compareDec(a: Dec, b: Dec): number {
  const [signA, signB] = [signOf(a.unscaled), signOf(b.unscaled)];
  if (signA !== signB || signA === 0) return Math.sign(signA - signB);
  const magnitude = decimalDigits(a.unscaled) - a.scale - (decimalDigits(b.unscaled) - b.scale);
  if (Math.abs(magnitude) > 2) return Math.sign(magnitude) * signA;
  const scale = Math.max(a.scale, b.scale);
  const [x, y] = [a.unscaled * pow10(scale - a.scale), b.unscaled * pow10(scale - b.scale)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * removeInt64Factors / removeBigIntFactors: `value = result × base^times`. Divided by base^(2^k)
 * from the largest k down, not once per factor, so a number with 100,000 trailing zeros takes 17
 * divisions rather than 100,000.
 */
export function removeFactors(value: bigint, base: bigint): [bigint, number] {
  if (value === 0n) return [0n, 0];
  const powers = [base];
  while (value % powers.at(-1)! === 0n) powers.push(powers.at(-1)! ** 2n);
  let result = value;
  let times = 0;
  for (let k = powers.length - 2; k >= 0; k--) {
    if (result % powers[k]! === 0n) ((result /= powers[k]!), (times += 2 ** k));
  }
  return [result, times];
}

const MAX_INT32 = 2 ** 31 - 1;

/** ParseQuantity, after UnmarshalJSON's quotes and spaces; undefined where Go refuses the text. */
export function parseQuantity(input: unknown): Quantity | undefined {
  if (typeof input !== 'string' && typeof input !== 'number') return undefined;
  const parsed = parseQuantityText(goTrimSpace(String(input)));
  return typeof parsed === 'string' ? undefined : parsed;
}

const ERR_FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const ERR_NUMERIC = 'unable to parse numeric part of quantity';

/** resource.ParseQuantity of the text as it is: the quantity, or Go's error text. */
export function parseQuantityText(str: string): Quantity | string {
  if (str === '') return ERR_FORMAT_WRONG;
  if (str === '0') return { i: { value: 0n, scale: 0 }, s: str, format: 'DecimalSI' };
  const parts = scan(str);
  if (parts === undefined) return ERR_FORMAT_WRONG;
  const suffix = interpret(parts.suffix);
  if (suffix === undefined) return "unable to parse quantity's suffix";
  const { positive, value, num, denom } = parts;
  const { base, exponent, format } = suffix;
  let precision = 0;
  let scale = 0;
  let mantissa = 1n;
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      mantissa = 1n << BigInt(exponent);
      precision = 15 - num.length - Math.trunc((Math.fround(exponent) * 3) / 10) - 1;
    } else precision = -1;
  } else {
    scale = exponent;
    precision = 18 - (num.length + denom.length);
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= -9) {
      const shifted = num + denom;
      const parsed = BigInt(shifted);
      const product = parsed * mantissa;
      if (fitsInt64(product)) {
        const result = positive ? product : -product;
        // The text is cached where it already is the canonical form.
        const canonical =
          format === 'BinarySI'
            ? exponent % 10 === 0 && (parsed & 7n) !== 0n
            : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return { i: { value: result, scale }, s: canonical ? str : '', format };
      }
    }
  }
  const decimal = /^[+-]?([0-9]*)(?:\.([0-9]*))?$/.exec(value);
  if (decimal === null || decimal[1]! + (decimal[2] ?? '') === '') return ERR_NUMERIC;
  const fraction = decimal[2] ?? '';
  let amount: Dec = { unscaled: BigInt(`${value.startsWith('-') ? '-' : ''}${decimal[1]}${fraction}`), scale: fraction.length };
  if (base === 10) amount.scale -= exponent;
  else amount.unscaled <<= BigInt(exponent);
  // inf.Dec's scale is an int32: past it Go's sum wraps to another number, which it then writes out
  // with some 2^31 digits and never answers. Refused here rather than judged as some other value.
  if (Math.abs(amount.scale) > MAX_INT32) return `${ERR_NUMERIC}: its exponent is beyond an int32`;
  const negative = amount.unscaled < 0n;
  if (negative) amount.unscaled = -amount.unscaled;
  // Non-zero values are rounded up to the nano scale: asking for some resource gets some.
  if (amount.unscaled !== 0n) amount = roundDec(amount, 9);
  let resultFormat = format;
  if (format === 'BinarySI' && compareDec(amount, { unscaled: MAX_INT64, scale: 0 }) > 0) amount = { unscaled: MAX_INT64, scale: 0 };
  if (format === 'BinarySI' && compareDec(amount, { unscaled: 1n, scale: 0 }) < 0 && amount.unscaled > 0n) resultFormat = 'DecimalSI';
  if (negative) amount.unscaled = -amount.unscaled;
  return { i: { value: 0n, scale: 0 }, d: amount, s: '', format: resultFormat };
}

/** negativeScaleInt64: `base / 10^scale`, rounded away from zero, and whether it was exact. */
export function negativeScale(base: bigint, scale: number): [bigint, boolean] {
  if (scale === 0) return [base, true];
  let value = base;
  let fraction = false;
  for (let i = 0; i < scale; i++) {
    if (!fraction && value % 10n !== 0n) fraction = true;
    value /= 10n;
    if (value === 0n) return fraction ? [base > 0n ? 1n : -1n, false] : [0n, true];
  }
  if (fraction) value += base > 0n ? 1n : -1n;
  return [value, !fraction];
}

/**
 * positiveScaleInt64: `base × 10^scale` and whether it fit. Go's fast cases (scales 1, 2, 3, 6, 9)
 * hand back the wrapped product with the flag, which Quantity.Value then uses regardless; the
 * other scales answer 0.
 */
export function positiveScaleInt64(base: bigint, scale: number): [bigint, boolean] {
  if (scale === 0 || base === 0n) return [base, true];
  if ([1, 2, 3, 6, 9].includes(scale)) {
    if (base === 1n) return [pow10(scale), true];
    if (base === MIN_INT64) return [0n, false];
    const product = base * pow10(scale);
    return [BigInt.asIntN(64, product), fitsInt64(product)];
  }
  let value = base;
  for (let i = 0; i < scale; i++) {
    if (value === MIN_INT64) return [0n, false];
    value *= 10n;
    if (!fitsInt64(value)) return [0n, false];
  }
  return [value, true];
}

/** The quantity as an inf.Dec, as Quantity.AsDec makes it. */
export const asDec = (q: Quantity): Dec => q.d ?? { unscaled: q.i.value, scale: -q.i.scale };

/** Quantity.RoundUp: to `scale` (a power of ten), away from zero; the cached string goes when the value changes form. */
export function roundUp(q: Quantity, scale: number): Quantity {
  if (q.d !== undefined) return { ...q, d: roundDec(q.d, -scale), s: '' };
  if (q.i.scale >= scale) return q;
  return { ...q, i: { value: negativeScale(q.i.value, scale - q.i.scale)[0], scale }, s: '' };
}

export const sign = (q: Quantity): number => {
  const value = q.d?.unscaled ?? q.i.value;
  return value === 0n ? 0 : value > 0n ? 1 : -1;
};
