/**
 * Kubernetes' CEL quantity library (k8s.io/apiserver/pkg/cel/library/quantity.go): quantity(),
 * isQuantity(), sign(), comparisons, add() and sub() (of a quantity or an int), asInteger(),
 * isInteger(), asApproximateFloat(). Quantities are apimachinery's, compared by value.
 */
import type { Quantity } from '../../apiserver/apimachinery/quantity.js';
import { parseQuantityText, sign } from '../../apiserver/apimachinery/quantity.js';
import {
  addQuantities,
  compareQuantities,
  int64Quantity,
  quantityAsFloat,
  quantityAsInt64,
  quantityKey,
  subQuantities,
} from '../../apiserver/apimachinery/quantity-arithmetic.js';
import { type Library, orThrow } from './opaque.js';

export const quantityLibrary: Library = ({ cel }, types) => {
  const { celFunc, celMethod } = cel;
  const { STRING, BOOL, INT, DOUBLE } = cel.CelScalar;
  const Q = types['kubernetes.Quantity'];
  const quantity = (value: unknown) => Q.value(value as never) as Quantity;
  const wrap = (value: Quantity) => Q.of(quantityKey(value), value);
  const compare = (name: string, result: (order: number) => boolean | bigint, type: typeof BOOL | typeof INT) =>
    celMethod(name, Q.type, [Q.type], type, function (other) {
      return result(compareQuantities(quantity(this), quantity(other))) as never;
    });
  const arithmetic = (name: string, run: (q: Quantity, y: Quantity) => Quantity) => [
    celMethod(name, Q.type, [Q.type], Q.type, function (other) {
      return wrap(run(quantity(this), quantity(other)));
    }),
    celMethod(name, Q.type, [INT], Q.type, function (other) {
      return wrap(run(quantity(this), int64Quantity(other)));
    }),
  ];
  return [
    celFunc('quantity', [STRING], Q.type, (text) => wrap(orThrow(parseQuantityText(text)))),
    celFunc('isQuantity', [STRING], BOOL, (text) => typeof parseQuantityText(text) !== 'string'),
    // A function, not a method, in Kubernetes' declarations: sign(q).
    celFunc('sign', [Q.type], INT, (q) => BigInt(sign(quantity(q)))),
    compare('isGreaterThan', (order) => order === 1, BOOL),
    compare('isLessThan', (order) => order === -1, BOOL),
    compare('compareTo', (order) => BigInt(order), INT),
    ...arithmetic('add', addQuantities),
    ...arithmetic('sub', subQuantities),
    celMethod('asApproximateFloat', Q.type, [], DOUBLE, function () {
      return quantityAsFloat(quantity(this));
    }),
    celMethod('asInteger', Q.type, [], INT, function () {
      const value = quantityAsInt64(quantity(this));
      if (value === undefined) throw new Error('cannot convert value to integer');
      return value;
    }),
    celMethod('isInteger', Q.type, [], BOOL, function () {
      return quantityAsInt64(quantity(this)) !== undefined;
    }),
  ];
};
