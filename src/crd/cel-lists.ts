/**
 * List `+` as cel-go adds lists when a comprehension builds one. @bufbuild/cel's `+` makes a view
 * over both sides, so map() and filter(), which add an element an iteration (`@result + [x]`),
 * built a chain of views as deep as the list: iterating it recursed once a view and overflowed the
 * stack at some 8,000 elements, and every read walked the chain. cel-go appends to the accumulator
 * in place (its mutable list), linear in the list. Here every sum is one flat array, and a sum whose
 * left side ends its array appends to it, as Go's append uses a slice's spare room: the left list
 * keeps its own length, so it never changes; only a second sum on the same left side copies it.
 */
import type { CelFunc, CelList, CelValue } from '@bufbuild/cel';

type Cel = typeof import('@bufbuild/cel');
type ArrayListClass = new (array: unknown[]) => CelList & { _array: unknown[] };

/** @bufbuild/cel's own list of an array (not exported): subclassed so that isCelList knows the sums. */
const arrayListOf = (cel: Cel) => Object.getPrototypeOf(cel.celList([])).constructor as ArrayListClass;

/** `+` of lists, and the list class its sums are, for one loaded @bufbuild/cel. */
export function celLists(cel: Cel): CelFunc[] {
  class SumList extends arrayListOf(cel) {
    constructor(
      array: unknown[],
      readonly length: number,
    ) {
      super(array);
    }
    override get size(): number {
      return this.length;
    }
    override *values(): IterableIterator<CelValue> {
      for (let index = 0; index < this.length; index++) yield this.get(index)!;
    }
  }
  const add = (left: CelList, right: CelList): CelList => {
    if (right.size === 0) return left;
    if (left.size === 0) return right;
    const spare = left instanceof SumList && left._array.length === left.length;
    const array = spare ? left._array : [...left];
    for (const item of right) array.push(item);
    return new SumList(array, array.length);
  };
  const LIST = cel.listType(cel.CelScalar.DYN);
  return [cel.celFunc('_+_', [LIST, LIST], LIST, add)];
}
