/**
 * cel-go's sets extension (ext.Sets, in Kubernetes' CRD environment since 1.29): sets.contains(),
 * sets.equivalent() and sets.intersects() of two lists, their elements compared as == does.
 */
import type { CelList } from '@bufbuild/cel';
import { celEquals, type Library } from './opaque.js';

export const setsLibrary: Library = (runtime) => {
  const { celFunc, listType } = runtime.cel;
  const { BOOL, DYN } = runtime.cel.CelScalar;
  const LIST = listType(DYN);
  const equals = celEquals(runtime);
  const has = (list: CelList, item: unknown) => [...list].some((element) => equals(element, item as never));
  const contains = (list: CelList, sublist: CelList) => [...sublist].every((item) => has(list, item));
  return [
    celFunc('sets.contains', [LIST, LIST], BOOL, contains),
    celFunc('sets.equivalent', [LIST, LIST], BOOL, (a, b) => contains(a, b) && contains(b, a)),
    celFunc('sets.intersects', [LIST, LIST], BOOL, (a, b) => [...a].some((item) => has(b, item))),
  ];
};
