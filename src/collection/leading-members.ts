/** Root members that lead every manifest, in this order (CONTRACT §6); the others follow as the sections wrote them. */
export const LEADING_MEMBERS: readonly string[] = ['apiVersion', 'kind', 'metadata'];

/** A manifest's root members, the leading ones first. */
export function leadingFirst<T>(members: ReadonlyArray<[string, T]>): Array<[string, T]> {
  const leading = LEADING_MEMBERS.flatMap((name) => members.filter(([member]) => member === name));
  return [...leading, ...members.filter(([member]) => !LEADING_MEMBERS.includes(member))];
}
