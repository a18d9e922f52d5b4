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

/** At most CACHE_SIZE facet lists; once full, further lists are not remembered. */
export class FacetListCache<T> {
  private readonly root: Trie<T> = {};
  private count = 0;

  get(facets: readonly unknown[]): T | undefined {
    let node: Trie<T> | undefined = this.root;
    for (let index = 0; index < facets.length && node !== undefined; index++) node = node.next?.get(facets[index] as string);
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
  }
}
