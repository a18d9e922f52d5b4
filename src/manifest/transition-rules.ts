/**
 * The rules that judge an update as the kind check knows them: a CRD's transition rules (which read
 * oldSelf), compiled by the CRD layer (crd/cel-rules.ts) and run by the kind check, which sees them
 * only through this shape, so that it need not import the CRD layer it sits below.
 */
import type { Problem } from '../request/problems.js';

/** A rule this library cannot run, on a create or an update. */
export interface SkippedRule {
  /** JSON Pointer of the rule in the CRD file. */
  pointer: string;
  rule: string;
  reason: string;
  /** Whether it is a transition rule (reads oldSelf): one an update would run, never a create. */
  transition: boolean;
  /** Where the rule's node is in a manifest, `*` for any list element or map value, e.g. `/spec/storage`. */
  at: string;
}

/** A transition rule compiled, for a report's legend. */
export interface TransitionRule {
  /**
   * Where its problems point in a manifest: the rule's schema node (and its fieldPath) as a JSON
   * Pointer, `*` standing for any list element or map value, e.g. `/spec/storage/bucket`.
   */
  pointer: string;
  rule: string;
  message?: string;
}

/** A CRD's CEL rules as the kind check runs them on an update. */
export interface TransitionRules {
  /** Rules never run here; the transition rules among them may break unseen on an update. */
  readonly skipped: readonly SkippedRule[];
  /** Transition rules compiled and checked on an update, in schema order. */
  readonly transitionRules: readonly TransitionRule[];
  /** Every transition rule `after` fails as an update of `before`, each pointed into `after`. */
  checkTransition(before: unknown, after: unknown): Problem[];
}
