/**
 * The bounded caches of a render plan: valid facet lists → their selection, kept in a trie so that
 * a repeated list costs one map lookup per facet and no key string; and any keyed cache that drops
 * its oldest entry when full.
 */

/** Distinct facet lists, and section sets, whose compiled plans are kept per collection. */
export const CACHE_SIZE = 256;

/** Keeps `value` under `key`, dropping the oldest entry when the cache is full. */
export function remember<T>(cache: Map<string, T>, key: string, value: T): void {
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
}

interface Trie<T> {
  value?: T;
  next?: Map<string, Trie<T>>;
}

/**
 * At most CACHE_SIZE facet lists; once full, further lists are not remembered. The list last found
 * is kept apart too: requests to one collection mostly repeat one list, and comparing a few short
 * strings costs less than a map lookup per facet.
 */
export class FacetListCache<T> {
  private readonly root: Trie<T> = {};
  private count = 0;
  /** A copy: the caller's array may change after the lookup. */
  private lastList: readonly unknown[] = [];
  private lastValue: T | undefined;

  get(facets: readonly unknown[]): T | undefined {
    if (this.lastValue !== undefined && sameList(facets, this.lastList)) return this.lastValue;
    let node: Trie<T> | undefined = this.root;
    for (let index = 0; index < facets.length && node !== undefined; index++) node = node.next?.get(facets[index] as string);
    if (node?.value !== undefined) this.keepLast(facets, node.value);
    return node?.value;
  }

  set(facets: readonly string[], value: T): void {
    if (this.count >= CACHE_SIZE) return;
    let node = this.root;
    for (const facet of facets) {
      node.next ??= new Map();
      let child = node.next.get(facet);
      if (child === undefined) node.next.set(facet, (child = {}));
      node = child;
    }
    node.value = value;
    this.count++;
    this.keepLast(facets, value);
  }

  private keepLast(facets: readonly unknown[], value: T): void {
    this.lastList = facets.slice();
    this.lastValue = value;
  }
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
