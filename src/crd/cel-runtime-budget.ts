/**
 * What the rules of one custom resource may cost together when the API server runs them
 * (RuntimeCELCostBudget, apiextensions schema/cel/validation.go): each rule's cost is taken from
 * the budget; a rule that costs more than is left, or more than its own limit, ends the check
 * there, with the API server's words, and no further rule runs.
 */
import { COST_LIMIT_EXCEEDED, RUNTIME_CEL_COST_BUDGET } from './cel-runtime-cost.js';

export const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';
export const MESSAGE_OUT_OF_BUDGET =
  'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run';

/** The error of a rule stopped at the per-call limit; `rule` is its message, else its text. */
export const callLimitExceeded = (rule: string) =>
  `'${COST_LIMIT_EXCEEDED}': no further validation rules will be run due to call cost exceeds limit for rule: ${rule}`;

/** The error of a messageExpression stopped at the per-call limit. */
export const messageCallLimitExceeded = (expression: string) =>
  `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(expression)}`;

export class CostBudget {
  constructor(public remaining = RUNTIME_CEL_COST_BUDGET) {}

  /** Whether the check has ended: no further rule runs. */
  get stopped(): boolean {
    return this.remaining < 0;
  }

  /** Ends the check. */
  stop(): void {
    this.remaining = -1;
  }

  /** Takes `cost` from what is left; false, and the check ended, when it is more than that. */
  spend(cost: number): boolean {
    if (cost > this.remaining) {
      this.stop();
      return false;
    }
    this.remaining -= cost;
    return true;
  }
}
