/**
 * The one error a render may throw: the problems of a request, each with a JSON Pointer into the
 * request body, so a caller can fix them all at once (CONTRACT §4, §5). A request may have tens of
 * thousands; the error lists the first LISTED_PROBLEMS in body order and counts the rest.
 */
import { cutMiddle } from '../util/text.js';

export interface Problem {
  pointer: string;
  detail: string;
}

/** Problems one error lists; the rest are counted in `more`, so an answer stays small whatever the request (CONTRACT §7). */
export const LISTED_PROBLEMS = 100;

/**
 * Characters of a pointer in a problem: a longer one (long member names, deep down) is shown as its
 * two ends. Besides keeping answers small, it keeps pointers hashable: V8 hashes a string of more
 * than 16,383 characters by its length alone, so a thousand long pointers of one length would make
 * every lookup compare them all.
 */
export const MAX_POINTER_LENGTH = 1000;

export const shownPointer = (pointer: string): string => cutMiddle(pointer, MAX_POINTER_LENGTH);

/**
 * Why a request is refused, the title of its 422 answer (`invalid-values`): one per check that
 * refuses, so that a client can tell them apart and each is written once.
 */
export const REFUSALS = [
  'Invalid request',
  'Unknown facet',
  'Cannot resolve template variable',
  'Invalid input values',
  'Object too large for Kubernetes',
  'Request over limits',
] as const;
export type Refusal = (typeof REFUSALS)[number];

export class RenderError extends Error {
  constructor(
    readonly title: Refusal,
    /** In body order; at most LISTED_PROBLEMS when made by renderError. */
    readonly problems: Problem[],
    /** HTTP status the server answers with. */
    readonly status = 422,
    /** Problems found but not listed. */
    readonly more = 0,
  ) {
    const count = problems.length + more;
    super(count === 1 ? `${title}: ${problems[0]!.pointer || '/'} ${problems[0]!.detail}` : `${title} (${count} problems)`);
    this.name = 'RenderError';
  }
}

/** The error for `problems` (in any order): the first LISTED_PROBLEMS in body order, and a count of the rest. */
export function renderError(title: Refusal, problems: Problem[]): RenderError {
  const listed = firstInBodyOrder(problems, LISTED_PROBLEMS);
  return new RenderError(title, listed, 422, problems.length - listed.length);
}

/** Each pointer and detail once, in the order found. Most pointers have one detail, so most problems cost one lookup by pointer. */
export function distinctProblems(problems: Problem[]): Problem[] {
  const firstDetail = new Map<string, string>();
  const otherDetails = new Set<string>();
  return problems.filter(({ pointer, detail }) => {
    const first = firstDetail.get(pointer);
    if (first === undefined) return firstDetail.set(pointer, detail);
    if (first === detail) return false;
    const key = `${pointer}\u0000${detail}`;
    return !otherDetails.has(key) && otherDetails.add(key);
  });
}

/**
 * The first `limit` problems in body order, without sorting them all: a full sort of a hundred
 * thousand pointers takes a second or more, and problems mostly arrive in body order already, so
 * most are turned away by one comparison with the last one kept.
 */
export function firstInBodyOrder(problems: Problem[], limit: number): Problem[] {
  const kept: Problem[] = [];
  for (const problem of problems) {
    if (kept.length === limit && comparePointers(problem.pointer, kept[limit - 1]!.pointer) >= 0) continue;
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (comparePointers(kept[middle]!.pointer, problem.pointer) <= 0) low = middle + 1;
      else high = middle;
    }
    kept.splice(low, 0, problem);
    if (kept.length > limit) kept.pop();
  }
  return kept;
}

/** Whether `text` from `from` holds only digits up to the next slash or its end. */
function isIndex(text: string, from: number): boolean {
  let index = from;
  for (; index < text.length && text.charCodeAt(index) !== 0x2f; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x30 || code > 0x39) return false;
  }
  return index > from;
}

/** Where the segment of `text` starting at `from` ends: the next slash, or the end. */
function segmentEnd(text: string, from: number): number {
  const slash = text.indexOf('/', from);
  return slash === -1 ? text.length : slash;
}

/**
 * Orders pointers as their members appear in a body: segment by segment, a parent before its
 * members, array indexes by value. Compares characters in place: it runs once for every problem.
 */
export function comparePointers(a: string, b: string): number {
  if (a === b) return 0;
  const common = Math.min(a.length, b.length);
  let at = 0;
  let segment = 0; // where the segment holding `at` starts
  for (; at < common && a.charCodeAt(at) === b.charCodeAt(at); at++) if (a.charCodeAt(at) === 0x2f) segment = at + 1;
  // One segment ends where the other goes on: it is the other's parent, or a shorter name or index.
  const aEnded = at === a.length || a.charCodeAt(at) === 0x2f;
  const bEnded = at === b.length || b.charCodeAt(at) === 0x2f;
  if (aEnded && bEnded) return a.length < b.length ? -1 : 1;
  if (aEnded !== bEnded) return aEnded ? -1 : 1;
  // Indexes by value, compared as text: a thousand digits are no number.
  if (isIndex(a, segment) && isIndex(b, segment)) {
    const lengths = segmentEnd(a, segment) - segmentEnd(b, segment);
    if (lengths !== 0) return lengths;
  }
  return a.charCodeAt(at) < b.charCodeAt(at) ? -1 : 1;
}
