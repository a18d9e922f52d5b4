/**
 * The facet grammar and the master rule (CONTRACT §4): a section names the facets that select it;
 * `master` sections are always rendered, first, and the rest follow in file order. Pure, so the
 * console shares it.
 */
export const MASTER_FACET = 'master';

/** `master`, or `addon:` and a lowercase name. */
export const FACET_PATTERN = /^(master|addon:[a-z0-9-]+)$/;

export const isMasterFacet = (facet: string): boolean => facet === MASTER_FACET;

/** Master sections first, then the others, each group in its given (file) order. */
export function mastersFirst<T extends { facets: readonly string[] }>(sections: readonly T[]): T[] {
  const isMaster = (section: T) => section.facets.includes(MASTER_FACET);
  return [...sections.filter(isMaster), ...sections.filter((section) => !isMaster(section))];
}

/** Facets in the order a reader lists them: master first, then by name. */
export const compareFacets = (a: string, b: string): number => (a === MASTER_FACET ? -1 : b === MASTER_FACET ? 1 : a.localeCompare(b));
