/**
 * The x-kubernetes-validations rules of a CRD version, compiled once with @bufbuild/cel and run as
 * the API server runs them. On a create (`check`): each rule with `self` bound to the value at its
 * schema node (every element under items, every value under a map), its `message` (or
 * messageExpression) as the problem's detail. Transition rules (those reading `oldSelf`) have
 * nothing to compare on a create: they run on an update only (`checkTransition`), with `oldSelf` the
 * value at the same place in the old object, where old and new can be correlated and both exist.
 * Kubernetes' CEL libraries (quantity, url, ip …) run too (cel-kubernetes/); rules using the macros
 * @bufbuild/cel does not expand (two-variable comprehensions, optMap), and transition rules whose
 * oldSelf is a CEL optional (optionalOldSelf), cannot run here: they are skipped and listed, never
 * guessed. A rule that does not compile, or that the API server would refuse, is a CRD problem.
 */
import { isPlainObject, type JsonObject } from '../util/json.js';
import type { CrdProblem } from './crd-problem.js';
import { CelValues } from './cel-value.js';
import { correlatedElements } from './cel-correlation.js';
import { evaluateAll, type RuleProblem } from './cel-evaluate.js';
import { celCostProblems } from './cel-cost-budget.js';
import { CostBudget } from './cel-runtime-budget.js';
import { type RuleNode, RuleTree } from './cel-rule-tree.js';
import type { SkippedRule, TransitionRule, TransitionRules } from '../manifest/transition-rules.js';
import { SchemaDefaults } from '../schema/structural-defaults.js';
import { withinBounds } from './structural-value.js';

type Node = Record<string, unknown>;

export class CelRules implements TransitionRules {
  private readonly compileProblems: CrdProblem[];
  private readonly costProblems: () => CrdProblem[];
  private allProblems: CrdProblem[] | undefined;
  /** Rules this library cannot run: never checked here, on a create or an update. */
  readonly skipped: SkippedRule[];
  /** Rules compiled and checked on every manifest (transition rules not counted: see transitionRules). */
  readonly count: number;
  /** Transition rules compiled and checked on an update (`checkTransition`), in schema order. */
  readonly transitionRules: TransitionRule[];
  private readonly root: RuleNode | undefined;
  /** The API server fills in defaults before its rules run: a rule may read a member the caller left out. */
  private readonly defaults: SchemaDefaults | undefined;

  private constructor(schema: Node, schemaPointer: string) {
    const tree = new RuleTree(schema, schemaPointer);
    this.compileProblems = tree.problems;
    // Estimated when asked (lint, a rendered CRD), not by a server that only runs the rules.
    this.costProblems = () => celCostProblems(schema, schemaPointer);
    this.skipped = tree.skipped;
    this.count = tree.count;
    this.transitionRules = tree.transitionRules;
    this.root = tree.root;
    this.defaults = SchemaDefaults.compile(schema);
  }

  /** Rules that do not compile, or that the API server refuses (one whose estimated cost is over its budget too), as it would refuse the CRD for them. */
  get problems(): CrdProblem[] {
    return (this.allProblems ??= [...this.compileProblems, ...this.costProblems()]);
  }

  private defaulted(manifest: unknown): unknown {
    return this.defaults === undefined ? manifest : this.defaults.apply(manifest);
  }

  /** Compiles every rule of a version's openAPIV3Schema; `schemaPointer` is where it sits in the CRD file. */
  static compile(schema: JsonObject, schemaPointer = ''): CelRules {
    return new CelRules(schema, schemaPointer);
  }

  /** Every failed rule of a manifest, each with a JSON Pointer into the manifest; transition rules are not run. */
  check(manifest: unknown, budget = new CostBudget()): RuleProblem[] {
    const problems: RuleProblem[] = [];
    if (this.root === undefined || !isPlainObject(manifest)) return problems;
    visit(this.root, this.defaulted(manifest), new CelValues(), [], problems, budget);
    return problems;
  }

  /**
   * Every transition rule that `after` fails as an update of `before`, as the API server runs them on
   * an update: both defaulted; a rule runs where its node has a non-null value in both, correlated
   * by member name and map key, and by the keys of `x-kubernetes-list-type: map` lists (never by
   * position); each problem with a JSON Pointer into `after`. Rules over `self` alone are not run.
   */
  checkTransition(before: unknown, after: unknown, budget = new CostBudget()): RuleProblem[] {
    const problems: RuleProblem[] = [];
    if (this.root === undefined || this.transitionRules.length === 0 || !isPlainObject(before) || !isPlainObject(after)) return problems;
    visitTransition(this.root, this.defaulted(after), this.defaulted(before), new CelValues(), [], problems, budget);
    return problems;
  }
}

function visit(node: RuleNode, value: unknown, values: CelValues, path: string[], problems: RuleProblem[], budget: CostBudget): void {
  if (value === null || value === undefined || budget.stopped) return;
  // A value larger than the schema allows is refused by the schema check; rules on it could cost without bound.
  if (node.rules.length > 0 && withinBounds(value, node.schema)) {
    const bindings = { self: values.of(value, node.schema) };
    const refused = () => values.isRefused(value, node.schema);
    evaluateAll(node.rules, bindings, refused, path, problems, budget);
  }
  if (isPlainObject(value)) {
    for (const [name, child] of node.properties) {
      if (Object.hasOwn(value, name)) visit(child, value[name], values, [...path, name], problems, budget);
    }
    if (node.additional !== undefined) {
      for (const [key, member] of Object.entries(value)) visit(node.additional, member, values, [...path, key], problems, budget);
    }
  } else if (Array.isArray(value) && node.items !== undefined) {
    value.forEach((item, index) => visit(node.items!, item, values, [...path, String(index)], problems, budget));
  }
}

/** The transition rules at `node` and below, `value` and `old` the new and the old value there; `path` is in the new object. */
function visitTransition(
  node: RuleNode,
  value: unknown,
  old: unknown,
  values: CelValues,
  path: string[],
  problems: RuleProblem[],
  budget: CostBudget,
): void {
  // Transition rules run only where the value exists in both objects (optionalOldSelf rules, which
  // would run without an old value, are skipped); nothing below an absent value correlates either.
  if (value === null || value === undefined || old === null || old === undefined || budget.stopped) return;
  if (node.transitions.length > 0 && withinBounds(value, node.schema) && withinBounds(old, node.schema)) {
    const bindings = { self: values.of(value, node.schema), oldSelf: values.of(old, node.schema) };
    const refused = () => values.isRefused(value, node.schema) || values.isRefused(old, node.schema);
    evaluateAll(node.transitions, bindings, refused, path, problems, budget);
  }
  if (isPlainObject(value)) {
    if (!isPlainObject(old)) return;
    const member = (key: string) => (Object.hasOwn(old, key) ? old[key] : undefined);
    for (const [name, child] of node.properties) {
      if (Object.hasOwn(value, name)) visitTransition(child, value[name], member(name), values, [...path, name], problems, budget);
    }
    if (node.additional !== undefined) {
      for (const [key, item] of Object.entries(value)) {
        visitTransition(node.additional, item, member(key), values, [...path, key], problems, budget);
      }
    }
  } else if (Array.isArray(value) && node.items !== undefined) {
    for (const [index, item, was] of correlatedElements(node.schema, value, old)) {
      visitTransition(node.items, item, was, values, [...path, String(index)], problems, budget);
    }
  }
}
