/**
 * The API server's budget for the estimated cost of a CRD version's rules (apiextensions
 * validation.go): each rule's estimate (cel-cost-rules.ts) must stay within 10,000,000, each
 * messageExpression's too, and all of them together within 100,000,000. A CRD over either is
 * refused at creation; here it is a CRD problem in the API server's words, with the estimate, the
 * budget and, as the fix, the maxItems, maxLength and maxProperties that are missing.
 */
import type { CrdProblem } from './crd-problem.js';
import { type Missing, ruleCosts } from './cel-cost-rules.js';
import { MAX_UINT64 } from './cel-cost-range.js';

type Node = Record<string, unknown>;

export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000n;
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000n;

/** validation.go's getCostErrorMessage. */
export function costErrorMessage(name: string, cost: bigint, limit: bigint): string {
  const exceed = Number(cost) / Number(limit);
  const factor = exceed > 100 ? 'more than 100x' : exceed < 1.5 ? `${exceed.toFixed(6)}x` : `${exceed.toFixed(1)}x`;
  return `${name} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** The cost problems of a version's openAPIV3Schema at `schemaPointer` in the CRD file. */
export function celCostProblems(schema: Node, schemaPointer: string): CrdProblem[] {
  const problems: CrdProblem[] = [];
  const observed: Array<{ pointer: string; cost: bigint }> = [];
  let total = 0n;
  const observe = (pointer: string, cost: bigint) => {
    total = MAX_UINT64 - total < cost ? MAX_UINT64 : total + cost;
    if (cost >= STATIC_ESTIMATED_CRD_COST_LIMIT / 100n) observed.push({ pointer, cost });
  };
  for (const { pointer, rule, maxCost, cardinality, cost, missing, message } of ruleCosts(schema, schemaPointer)) {
    if (cost > STATIC_ESTIMATED_COST_LIMIT) {
      problems.push({
        pointer: `${pointer}/rule`,
        message:
          `rule ${JSON.stringify(rule)}: ${costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)}: ` +
          `estimated at ${cost} (${maxCost} a run, ${cardinality} runs at most), over the API server's budget of ${STATIC_ESTIMATED_COST_LIMIT} a rule`,
        fix: fixFor(missing),
      });
    }
    observe(`${pointer}/rule`, cost);
    if (message === undefined) continue;
    if (message.cost > STATIC_ESTIMATED_COST_LIMIT) {
      problems.push({
        pointer: `${pointer}/messageExpression`,
        message:
          `messageExpression ${JSON.stringify(message.expression)}: ` +
          `${costErrorMessage('estimated messageExpression cost', message.cost, STATIC_ESTIMATED_COST_LIMIT)}: ` +
          `estimated at ${message.cost}, over the API server's budget of ${STATIC_ESTIMATED_COST_LIMIT} an expression`,
        fix: fixFor(message.missing),
      });
    }
    observe(`${pointer}/messageExpression`, message.cost);
  }
  if (total <= STATIC_ESTIMATED_CRD_COST_LIMIT) return problems;
  // The API server names the (at most) four most expensive of 1% of the limit or more, the first observed of equals first.
  for (const { pointer, cost } of observed.sort((a, b) => (b.cost > a.cost ? 1 : b.cost < a.cost ? -1 : 0)).slice(0, 4)) {
    problems.push({
      pointer,
      message: `contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema (estimated at ${cost})`,
      fix: 'bound what it reads with maxItems, maxProperties and maxLength, or simplify it',
    });
  }
  problems.push({
    pointer: schemaPointer,
    message:
      `${costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', total, STATIC_ESTIMATED_CRD_COST_LIMIT)}: ` +
      `estimated at ${total}, over the API server's budget of ${STATIC_ESTIMATED_CRD_COST_LIMIT} for all rules`,
    fix: 'bound the lists, maps and strings the rules read with maxItems, maxProperties and maxLength, or simplify the rules',
  });
  return problems;
}

function fixFor(missing: Missing[]): string {
  const named = [...new Set(missing.map((m) => `${m.bound} to ${m.at}`))];
  if (named.length === 0) return 'simplify the rule, or lower the maxItems, maxProperties and maxLength of what it reads';
  return `add ${named.join(', ')} (without them the API server assumes as many as fit in a 3 MiB request), or simplify the rule`;
}
