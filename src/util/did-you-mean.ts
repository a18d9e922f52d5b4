/**
 * "Did you mean …?": the known name a mistyped one most likely meant, for lint, the API's 400s and
 * 422s and the server's settings alike, so that every message suggests by the same rule.
 */

/** Edits a name may be from a known one to count as a misspelling of it: one, two for long names. */
function editsAllowed(name: string): number {
  return name.length >= 12 ? 2 : 1;
}

/**
 * Edits (insert, delete, replace, swap two neighbours) from `a` to `b`, or `limit + 1` once it is
 * certainly more than `limit`: names of any length cost at most (limit + 1) × length to compare.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let smallest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      smallest = Math.min(smallest, value);
    }
    if (smallest > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length]!, limit + 1);
}

/** The known name closest to `name` (letter case aside) when it is close enough to be a misspelling of it; ties go to the first. Asked of names that are not known. */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const limit = editsAllowed(name);
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase(), limit);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** `; did you mean "x"?` for a suggestion, or nothing: the tail of a message. */
export function didYouMean(suggestion: string | undefined): string {
  return suggestion === undefined ? '' : `; did you mean "${suggestion}"?`;
}
