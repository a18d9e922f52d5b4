/**
 * The vectors of CEL cost (test/vectors/cel-cost.jsonl), written by scripts/oracle-cel-cost-vectors.ts
 * from test/oracle/celcost (Kubernetes 1.33's own code): for a CRD version's schema, each rule's
 * estimated cost and the CRD validation's cost errors; for a schema and a custom resource, the cost
 * budget its rules left and the errors of the rules the limits stopped.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ORACLE_DIR, type GoProgram } from './oracle.js';
import { ROOT } from './repos.js';

export const CEL_COST_VECTORS = path.join(ROOT, 'test/vectors/cel-cost.jsonl');

export const CELCOST: GoProgram = {
  name: 'celcost',
  pkg: './celcost',
  bin: path.join(ORACLE_DIR, '.bin/celcost'),
  sources: ['celcost/main.go', 'go.mod', 'go.sum'],
  binEnv: 'CELCOST_BIN',
};

/** A field error as celcost prints it: Go's field path (from the schema's root) and error body. */
export interface GoFieldError {
  field: string;
  detail: string;
}

/** One rule's estimate; costs are decimal strings (up to 2^64-1). */
export interface GoRuleCost {
  /** Go's path of the x-kubernetes-validations entry: `properties[spec].x-kubernetes-validations[0]`. */
  path: string;
  maxCost: string;
  /** The count of runs the node's own smallest JSON size gives (used when a list or map above is unbounded). */
  maxCardinality: string;
  /** What the budget is compared with: maxCost times the count of runs. */
  cost: string;
  messageCost?: string;
  /** A compile error (no cost then). */
  error?: string;
}

export type CostVector =
  | { kind: 'estimate'; source: string; schema: Record<string, unknown>; go: { rules: GoRuleCost[]; errors: GoFieldError[] } }
  | {
      kind: 'runtime';
      source: string;
      schema: Record<string, unknown>;
      object: Record<string, unknown>;
      go: { remaining: number; errors: GoFieldError[] };
    };

export function readCostVectors(): CostVector[] {
  return readFileSync(CEL_COST_VECTORS, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CostVector);
}
