/**
 * The reviewer's view of a rendered comparison (`facetform diff`, and the build when it refuses):
 * per collection and request, each difference of the rendered manifests with its class. Requests
 * with the same differences are shown once, the others named under it, so a change that touches
 * every request reads as one.
 */
import type { Verdict } from './compatibility.js';
import { type RenderedComparison, type RequestComparison, shown, shownPointer } from './rendered-comparison.js';

/** Requests named under a shared set of differences before the rest are only counted. */
const NAMED_ALIKE = 3;

const MARK = { added: '+', dropped: '-', changed: '~' } as const;

/** The highest class of change in the output: breaking when any request is refused or any difference breaks. */
export function outputLevel(comparison: RenderedComparison): 'breaking' | 'minor' | undefined {
  if (comparison.removed.length > 0) return 'breaking';
  let level: 'minor' | undefined;
  for (const request of comparison.collections.flatMap((collection) => collection.requests)) {
    if (request.refused.length > 0 || request.differences.some((difference) => difference.level === 'breaking')) return 'breaking';
    if (request.differences.length > 0) level = 'minor';
  }
  return level;
}

export function formatComparison(comparison: RenderedComparison): string {
  const lines: string[] = [];
  const level = outputLevel(comparison);
  const verdict =
    level === undefined
      ? 'existing requests render the same'
      : level === 'breaking'
        ? "BREAKING: kubectl apply would refuse or replace callers' objects"
        : 'renders differently (a minor release at least)';
  lines.push(`${comparison.repository} ${comparison.apiVersion} ${comparison.from} → ${comparison.to}: ${verdict}`);
  for (const { name, kind, examples } of comparison.added)
    lines.push(`  + ${name} (${kind}): a new collection; examples ${examples.join(', ') || 'none'}`);
  for (const name of comparison.removed) lines.push(`  - ${name}: removed; requests to it are refused (BREAKING)`);
  for (const collection of comparison.collections) {
    const differing = collection.requests.filter((request) => request.refused.length > 0 || request.differences.length > 0);
    const count = collection.requests.length;
    const render = differing.length === 0 ? 'none renders' : differing.length === 1 ? '1 renders' : `${differing.length} render`;
    lines.push(`  ${collection.name} (${collection.kind}): ${count} request${count === 1 ? '' : 's'}, ${render} differently`);
    if (collection.immutable.length > 0) lines.push(`    immutable on update: ${collection.immutable.join(', ')}`);
    const groups = new Map<string, RequestComparison[]>();
    for (const request of differing) {
      const key = JSON.stringify([request.refused, request.differences]);
      groups.set(key, [...(groups.get(key) ?? []), request]);
    }
    for (const [first, ...alike] of groups.values()) {
      lines.push(`    ${first!.request.name}`);
      if (alike.length > 0) {
        const named = alike.slice(0, NAMED_ALIKE).map((request) => request.request.name);
        lines.push(
          `      (the same for ${named.join('; ')}${alike.length > NAMED_ALIKE ? `; and ${alike.length - NAMED_ALIKE} more` : ''})`,
        );
      }
      for (const problem of first!.refused)
        lines.push(
          `      ! ${shownPointer(problem.pointer) || '/'} ${problem.detail}`,
          `          BREAKING, refused: ${comparison.to} refuses a request ${comparison.from} rendered`,
        );
      for (const difference of first!.differences) {
        const mark = difference.before === undefined ? MARK.added : difference.after === undefined ? MARK.dropped : MARK.changed;
        const values =
          difference.before === undefined
            ? shown(difference.after)
            : difference.after === undefined
              ? shown(difference.before)
              : `${shown(difference.before)} → ${shown(difference.after)}`;
        lines.push(`      ${mark} ${shownPointer(difference.pointer)}  ${values}`);
        lines.push(
          `          ${difference.level === 'breaking' ? 'BREAKING' : difference.level}, ${difference.class}: ${difference.reason}`,
        );
      }
    }
  }
  return lines.join('\n') + '\n';
}

/** The whole judgement of a release as the build makes it: each change of inputs and output with its level, then the verdict. */
export function formatVerdict(verdict: Verdict, comparison: RenderedComparison): string {
  const lines = [`  changes of ${comparison.to} after ${comparison.from}, as the build judges them:`];
  for (const change of verdict.changes) lines.push(`    ${change.level.padEnd(8)} ${change.text}`);
  if (verdict.changes.length === 0) lines.push('    none');
  lines.push(
    verdict.ok ? `  verdict: the build accepts ${comparison.to} after ${comparison.from}` : `  verdict: REFUSED: ${verdict.message}`,
  );
  return lines.join('\n') + '\n';
}
