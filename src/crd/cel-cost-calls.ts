/**
 * The estimated cost of one call, as the API server reckons it: first Kubernetes' estimator
 * (apiserver pkg/cel/library/cost.go, EstimateCallCost: its libraries and the strings extension's
 * functions), then the sets extension's, then cel-go's own (checker/cost.go, functionCost); any
 * other call costs 1. Every estimate adds what the arguments cost.
 */
import { kubernetesCost } from './cel-cost-kubernetes.js';
import {
  add,
  byFactor,
  fixed,
  multiply,
  ONE,
  type Range,
  REGEX_LENGTH_FACTOR,
  STRING_TRAVERSAL_FACTOR as TRAVERSAL,
  sum,
  union,
  UNKNOWN,
  wrapU,
} from './cel-cost-range.js';
import type { AstNode, CallEstimate, Sizing } from './cel-cost-estimator.js';
import type { Expr } from './cel-type-check.js';

/** ext/sets.go's estimators: the product of the two lists' sizes, times a factor, plus one. */
const SETS: Record<string, number> = { list_sets_contains_list: 1, list_sets_intersects_list: 1, list_sets_equivalent_list: 2 };

/** checker/cost.go's functionCost for one overload of a call. */
export function callCost(
  s: Sizing,
  e: Expr,
  fn: string,
  overload: string,
  target: AstNode | undefined,
  args: AstNode[],
  argCosts: Range[],
): CallEstimate {
  const argSum = sum(argCosts);
  const size = (node: AstNode | undefined) => node?.computed ?? UNKNOWN;
  const plusArgs = (estimate: CallEstimate | undefined): CallEstimate | undefined =>
    estimate && { cost: add(estimate.cost, argSum), ...(estimate.resultSize ? { resultSize: estimate.resultSize } : {}) };
  if (SETS[overload] !== undefined && args.length === 2) {
    const sized = (node: AstNode) => node.computed ?? s.estimateSize(node) ?? UNKNOWN;
    return plusArgs({ cost: add(byFactor(multiply(sized(args[0]!), sized(args[1]!)), SETS[overload]!), ONE) })!;
  }
  const kubernetes = plusArgs(kubernetesCost(s, fn, overload, target, args));
  if (kubernetes !== undefined) return kubernetes;
  const traversal = (node: AstNode | undefined) => byFactor(size(node), TRAVERSAL);
  switch (overload) {
    case 'string_format':
      return { cost: add(traversal(target), argSum) };
    case 'string_to_bytes':
    case 'bytes_to_string':
    case 'strings_quote': {
      if (args.length !== 1) break;
      const sz = size(args[0]);
      const resultSize =
        overload === 'string_to_bytes'
          ? { min: sz.min, max: wrapU(sz.max * 4n) }
          : overload === 'bytes_to_string'
            ? { min: sz.min / 4n, max: sz.max }
            : { min: wrapU(sz.min + 2n), max: wrapU(sz.max * 2n + 2n) };
      return { cost: add(traversal(args[0]), argSum), resultSize };
    }
    case 'starts_with_string':
    case 'ends_with_string':
      if (args.length === 1) return { cost: add(traversal(args[0]), argSum) };
      break;
    case 'in_list':
      if (args.length === 2) return { cost: add(byFactor(size(args[1]), 1), argSum) };
      break;
    case 'matches_string':
      if (args.length === 1)
        return { cost: add(multiply(byFactor(add(size(target), ONE), TRAVERSAL), byFactor(size(args[0]), REGEX_LENGTH_FACTOR)), argSum) };
      break;
    case 'contains_string':
      if (args.length === 1) return { cost: add(multiply(traversal(target), traversal(args[0])), argSum) };
      break;
    case 'logical_or':
    case 'logical_and':
      return { cost: { min: argCosts[0]!.min, max: add(argCosts[0]!, argCosts[1]!).max } };
    case 'conditional': {
      const resultSize = union(size(args[1]), size(args[2]));
      const [t, f] = [s.entrySize(args[1]!.expr!), s.entrySize(args[2]!.expr!)];
      s.setEntrySize(e, t && f && { container: t.container, key: union(t.key, f.key), val: union(t.val, f.val) });
      return { cost: add(argCosts[0]!, union(argCosts[1]!, argCosts[2]!)), resultSize };
    }
    case 'add_string':
    case 'add_bytes':
    case 'add_list': {
      if (args.length !== 2) break;
      const resultSize = add(size(args[0]), size(args[1]));
      const [l, r] = [s.entrySize(args[0]!.expr!), s.entrySize(args[1]!.expr!)];
      if (l && r) s.setEntrySize(e, { container: l.container, key: union(l.key, r.key), val: union(l.val, r.val) });
      const cost = overload === 'add_list' ? ONE : byFactor(resultSize, TRAVERSAL);
      return { cost: add(cost, argSum), resultSize };
    }
    case 'less_string':
    case 'greater_string':
    case 'less_equals_string':
    case 'greater_equals_string':
    case 'less_bytes':
    case 'greater_bytes':
    case 'less_equals_bytes':
    case 'greater_equals_bytes':
    case 'equals':
    case 'not_equals': {
      const [lhs, rhs] = [size(args[0]), size(args[1])];
      const smallest = rhs.max < lhs.max ? rhs.max : lhs.max;
      return { cost: add(byFactor({ min: smallest > 0n ? 1n : 0n, max: smallest }, TRAVERSAL), argSum) };
    }
  }
  return { cost: add(fixed(1n), argSum) };
}
