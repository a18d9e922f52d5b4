/**
 * resource.Quantity at the ends of its exponent (issue 41): Go rounds 1234567890123456789e99999 to
 * nano units, an inf.Dec of 100,028 digits; ours holds the 19 digits the text has and Go's scale
 * beside them. The figures are k8s.io/apimachinery v0.33.13's own (ParseQuantity, String, Value,
 * RoundUp(Milli), AsApproximateFloat64, Cmp with 1), printed by a Go program over these texts.
 */
import { describe, expect, it } from 'vitest';
import { type Quantity, asDec, parseQuantityText, removeFactors, roundUp } from '../src/apiserver/apimachinery/quantity.js';
import { addQuantities, compareQuantities, quantityAsFloat, quantityKey } from '../src/apiserver/apimachinery/quantity-arithmetic.js';
import { quantityString, quantityValue } from '../src/apiserver/apimachinery/quantity-print.js';

// text, String, Value, String and Value after RoundUp(Milli), AsApproximateFloat64, Cmp(1)
const GO: Array<[string, string, bigint, string, bigint, number, number]> = [
  ['-1234567890123456789e99999', '-1234567890123456789e99999', 0n, '-1234567890123456789e99999', 0n, -Infinity, -1],
  ['1234567890123456789e100001', '123456789012345678900e99999', 0n, '123456789012345678900e99999', 0n, Infinity, 1],
  ['1e-100001', '1e-9', 1n, '1e-3', 1n, 1e-9, -1],
  ['1234567890123456789e99999', '1234567890123456789e99999', 0n, '1234567890123456789e99999', 0n, Infinity, 1],
  ['-1e-100001', '-1e-9', 1n, '-1e-3', 1n, -1e-9, -1],
  ['1234567890123456789e-99990', '1e-9', 1n, '1e-3', 1n, 1e-9, -1],
  ['123456789012345678900000e99999', '123456789012345678900e100002', 0n, '123456789012345678900e100002', 0n, Infinity, 1],
];

const parsed = (text: string): Quantity => {
  const quantity = parseQuantityText(text);
  if (typeof quantity === 'string') throw new Error(`${text}: ${quantity}`);
  return quantity;
};
const one = parsed('1');

describe('quantities with exponents of 100,000', () => {
  it.each(GO)('%s is what Go makes of it', (text, string, value, milli, milliValue, float, order) => {
    const quantity = parsed(text);
    const rounded = roundUp(quantity, -3);
    expect([quantityString(quantity), quantityValue(quantity), quantityString(rounded), quantityValue(rounded)]).toEqual([
      string,
      value,
      milli,
      milliValue,
    ]);
    expect([quantityAsFloat(quantity), compareQuantities(quantity, one)]).toEqual([float, order]);
  });

  it('holds the digits the text has, not the 100,000 zeros Go writes out', () => {
    for (const [text] of GO) {
      for (const quantity of [parsed(text), roundUp(parsed(text), -3)]) {
        expect(asDec(quantity).unscaled.toString().length, text).toBeLessThanOrEqual(24);
      }
    }
  });

  it('refuses only a scale past int32, where Go wraps to another number', () => {
    expect(parseQuantityText('1e-2147483648')).toBe('unable to parse numeric part of quantity: its exponent is beyond an int32');
    expect(quantityString(parsed('1e-2147483647'))).toBe('1e-9');
  });

  it('keys equal values alike, trailing zeros counted by squaring powers of ten', () => {
    expect(quantityKey(parsed('1234567890123456789e99999'))).toBe('1234567890123456789e99999');
    expect(quantityKey(parsed('123456789012345678900000e99996'))).toBe('1234567890123456789e100001');
    expect(removeFactors(10n ** 100_000n * 7n, 10n)).toEqual([7n, 100_000]);
    expect(removeFactors(1024n ** 5n * 3n, 1024n)).toEqual([3n, 5]);
  });

  it('adds numbers a million places apart no more than Go could, refusing rather than writing them out', () => {
    expect(() => addQuantities(parsed('1e2000000000'), parsed('1.5'))).toThrow('are not added here');
    expect(quantityString(addQuantities(parsed('1234567890123456789e100001'), parsed('1e100001')))).toBe('123456789012345679e100002');
  });
});
