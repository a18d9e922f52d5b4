/**
 * One compiled rule run on the values bound to `self` (and `oldSelf`): nothing when it holds, else a
 * problem of the manifest with the rule's message (its messageExpression's, when that gives one line).
 */
import type { Problem } from '../request/problems.js';
import { toPointer } from '../util/json.js';
import { celLibrary } from './cel-library.js';
import type { Bindings } from './cel-expression.js';
import type { CompiledRule } from './cel-rule-tree.js';

/** A failed rule: a problem of the manifest, with the rule's reason when it gives one. */
export interface RuleProblem extends Problem {
  reason?: string;
}

/** Runs `rule` at `path` of the manifest; `refused` says whether the schema refuses the value, which the schema check reports. */
export function evaluate(rule: CompiledRule, bindings: Bindings, refused: () => boolean, path: string[], problems: RuleProblem[]): void {
  let result: unknown;
  try {
    result = rule.program(bindings);
  } catch (error) {
    result = error;
  }
  if (result === true) return;
  if (result !== false) {
    // An error: on a value the schema refuses, the schema check has said it already.
    const detail = celLibrary().cel.isCelError(result) || result instanceof Error ? result.message : `gave ${String(result)}, not a bool`;
    if (refused()) return;
    problems.push({ pointer: toPointer(path), detail: `${detail} evaluating rule: ${rule.message ?? rule.rule}` });
    return;
  }
  const problem: RuleProblem = { pointer: toPointer([...path, ...rule.fieldPath]), detail: message(rule, bindings) };
  if (rule.reason !== undefined) problem.reason = rule.reason;
  problems.push(problem);
}

function message(rule: CompiledRule, bindings: Bindings): string {
  if (rule.messageProgram !== undefined) {
    try {
      const message = rule.messageProgram(bindings);
      if (typeof message === 'string' && message.trim() !== '' && !/[\r\n]/.test(message)) return message.trim();
    } catch {
      // falls back to message, as in Kubernetes
    }
  }
  return rule.message ?? `failed rule: ${rule.rule}`;
}
