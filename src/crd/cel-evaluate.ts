/**
 * One compiled rule run on the values bound to `self` (and `oldSelf`): nothing when it holds, else a
 * problem of the manifest with the rule's message (its messageExpression's, when that gives one line).
 * Each run's cost is taken from the custom resource's budget (cel-runtime-budget.ts); a rule past
 * its limit or the budget ends the check, as in the API server.
 */
import { duplicate, FieldPath, forbidden, invalid, required } from '../apiserver/apimachinery/field-error.js';
import type { Problem } from '../request/problems.js';
import { toPointer } from '../util/json.js';
import { celLibrary } from './cel-library.js';
import type { Bindings } from './cel-expression.js';
import type { CompiledRule } from './cel-rule-tree.js';
import { callLimitExceeded, CostBudget, MESSAGE_OUT_OF_BUDGET, messageCallLimitExceeded, OUT_OF_BUDGET } from './cel-runtime-budget.js';
import { CostTracker } from './cel-runtime-cost.js';

/** A failed rule: a problem of the manifest, with the rule's reason when it gives one. */
export interface RuleProblem extends Problem {
  reason?: string;
}

/** Runs a node's rules in order on its value within `budget`, which none may run on when it is spent. */
export function evaluateAll(
  rules: readonly CompiledRule[],
  bindings: Bindings,
  refused: () => boolean,
  path: string[],
  problems: RuleProblem[],
  budget: CostBudget,
): void {
  if (budget.stopped) return;
  if (budget.remaining === 0) {
    problems.push({ pointer: toPointer(path), detail: goBody(rules[0]!, OUT_OF_BUDGET) });
    return budget.stop();
  }
  for (const rule of rules) {
    evaluate(rule, bindings, refused, path, problems, budget);
    if (budget.stopped) return;
  }
}

/** Runs `rule` at `path` of the manifest; `refused` says whether the schema refuses the value, which the schema check reports. */
export function evaluate(
  rule: CompiledRule,
  bindings: Bindings,
  refused: () => boolean,
  path: string[],
  problems: RuleProblem[],
  budget = new CostBudget(),
): void {
  const tracker = new CostTracker();
  let result: unknown;
  try {
    result = rule.program(bindings, tracker);
  } catch (error) {
    result = error;
  }
  if (!budget.spend(tracker.cost)) return void problems.push({ pointer: toPointer(path), detail: goBody(rule, OUT_OF_BUDGET) });
  if (tracker.exceeded) {
    budget.stop();
    return void problems.push({ pointer: toPointer(path), detail: goBody(rule, callLimitExceeded(rule.message ?? rule.rule)) });
  }
  if (result === true) return;
  if (result !== false) {
    // An error: on a value the schema refuses, the schema check has said it already.
    const detail = celLibrary().cel.isCelError(result) || result instanceof Error ? result.message : `gave ${String(result)}, not a bool`;
    if (refused()) return;
    problems.push({ pointer: toPointer(path), detail: goBody(rule, `${detail} evaluating rule: ${rule.message ?? rule.rule}`) });
    return;
  }
  const pointer = toPointer([...path, ...rule.fieldPath]);
  const said = message(rule, bindings, budget);
  // The messageExpression's cost ended the check: the API server says so as an Invalid error.
  if (budget.stopped) return void problems.push({ pointer, detail: goBody(rule, said) });
  const problem: RuleProblem = { pointer, detail: goBody(rule, said, rule.reason) };
  if (rule.reason !== undefined) problem.reason = rule.reason;
  problems.push(problem);
}

const HERE = FieldPath.of();

/**
 * A rule's error as the API server words it (fieldErrorForReason): by the rule's reason, the value
 * shown as the type of the rule's schema node, e.g. `Invalid value: "object": <message>`.
 */
function goBody(rule: CompiledRule, detail: string, reason?: string): string {
  if (reason === 'FieldValueForbidden') return forbidden(HERE, detail).body;
  if (reason === 'FieldValueRequired') return required(HERE, detail).body;
  if (reason === 'FieldValueDuplicate') return duplicate(HERE, rule.schemaType).body;
  return invalid(HERE, rule.schemaType, detail).body;
}

function message(rule: CompiledRule, bindings: Bindings, budget: CostBudget): string {
  if (rule.messageProgram !== undefined) {
    const tracker = new CostTracker();
    let message: unknown;
    try {
      message = rule.messageProgram(bindings, tracker);
    } catch {
      // falls back to message, as in Kubernetes
    }
    if (!budget.spend(tracker.cost)) return MESSAGE_OUT_OF_BUDGET;
    if (tracker.exceeded) {
      budget.stop();
      return messageCallLimitExceeded(rule.messageExpression ?? '');
    }
    // Longer than MaxEvaluatedMessageExpressionSizeBytes, the API server falls back to message too.
    if (typeof message === 'string' && message.trim() !== '' && !/[\r\n]/.test(message) && Buffer.byteLength(message.trim()) <= 5120)
      return message.trim();
  }
  return rule.message ?? `failed rule: ${rule.rule}`;
}
