/**
 * What a call's estimator sees of the estimate in progress and gives back to it: the arguments as
 * checker.AstNode, the sizes it may ask for, its cost and result size. Its own module, as both
 * estimators read it: cel-go's (cel-cost-calls.ts) and Kubernetes' (cel-cost-kubernetes.ts), which
 * cel-go's consults first.
 */
import type { Range } from './cel-cost-range.js';
import type { CelType } from './cel-cost-types.js';
import type { Expr } from './cel-type-check.js';

/** checker.AstNode: an argument or target as the estimators see it. */
export interface AstNode {
  /** From a variable through members, `@items`, `@keys`, `@values`; undefined when not from `self`. */
  path: string[] | undefined;
  type: CelType;
  expr: Expr | undefined;
  /** The size the expression itself gives (a literal, a concatenation …), if any. */
  computed: Range | undefined;
}

export interface EntrySize {
  container: 'list' | 'map';
  key: Range;
  val: Range;
}

/** What the call estimators ask of the estimate in progress. */
export interface Sizing {
  /** The schema's estimate for a node's path (compilation.go's sizeEstimator). */
  estimateSize(node: AstNode): Range | undefined;
  entrySize(expr: Expr): EntrySize | undefined;
  setEntrySize(expr: Expr, size: EntrySize | undefined): void;
}

export interface CallEstimate {
  cost: Range;
  resultSize?: Range;
}
