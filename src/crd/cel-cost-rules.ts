/**
 * The estimated cost of each x-kubernetes-validations rule of a CRD version, as the API server's
 * CRD validation reckons it (apiextensions validation.go and cel_validation.go): the rule's worst
 * case (cel-cost-estimate.ts) times how often it may run — the product of the maxItems and
 * maxProperties of the lists and maps above it, or, where one of them has none, as many times as
 * its smallest JSON value fits in a request. A messageExpression's worst case is taken once.
 */
import { isPlainObject, toPointer } from '../util/json.js';
import { analyseExpression } from './cel-expression.js';
import { estimateCost } from './cel-cost-estimate.js';
import { mulU } from './cel-cost-range.js';
import { cardinalityOf, declOf } from './cel-cost-sizes.js';
import type { Decl } from './cel-cost-types.js';
import { celName, withTypeAndObjectMeta } from './cel-value.js';

type Node = Record<string, unknown>;

/** A bound a member lacks: its place in a manifest and the keyword. */
export interface Missing {
  at: string;
  bound: string;
}

export interface RuleCost {
  /** JSON Pointer of the x-kubernetes-validations entry in the CRD file. */
  pointer: string;
  rule: string;
  /** The worst case of one run (CompilationResult.MaxCost). */
  maxCost: bigint;
  /** How many times it may run. */
  cardinality: bigint;
  /** maxCost × cardinality, what the budget is compared with. */
  cost: bigint;
  /** The bounds whose absence the estimate had to fill in: those above, and those the rule reads. */
  missing: Missing[];
  message?: { expression: string; cost: bigint; missing: Missing[] };
}

interface Place {
  path: Array<string | number>;
  /** The node's Decl, taken from its parent's as the API server takes it; undefined where it has none. */
  decl: Decl | undefined;
  /** The times a value here may occur, by the bounds above; undefined when a list or map above is unbounded. */
  cardinality: bigint | undefined;
  unboundedAbove: Missing[];
  at: string;
}

/** The cost of every rule that compiles, in the order the API server observes them (children first). */
export function ruleCosts(schema: Node, schemaPointer: string): RuleCost[] {
  const costs: RuleCost[] = [];
  const visit = (node: Node, place: Place, root: boolean): void => {
    const child = (member: unknown, step: Array<string | number>, at: string, fromParent: Decl | undefined) => {
      if (!isPlainObject(member)) return;
      const decl = fromParent ?? declOf(member, member['x-kubernetes-embedded-resource'] === true, at);
      const factor = spread(node);
      const cardinality = place.cardinality === undefined || factor === undefined ? undefined : guardedProduct(place.cardinality, factor);
      const bound = node.type === 'array' ? 'maxItems' : 'maxProperties';
      const unboundedAbove = factor === undefined ? [...place.unboundedAbove, { at: place.at || '/', bound }] : place.unboundedAbove;
      visit(member, { path: [...place.path, ...step], decl, cardinality, unboundedAbove, at }, false);
    };
    if (isPlainObject(node.additionalProperties))
      child(node.additionalProperties, ['additionalProperties'], `${place.at}/*`, place.decl?.elem);
    if (isPlainObject(node.properties)) {
      for (const [name, member] of Object.entries(node.properties)) {
        const escaped = celName(name);
        const at = `${place.at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        child(member, ['properties', name], at, escaped === undefined ? undefined : place.decl?.fields?.get(escaped));
      }
    }
    if (isPlainObject(node.items)) child(node.items, ['items'], `${place.at}/*`, place.decl?.elem);
    const rules = node['x-kubernetes-validations'];
    const decl = place.decl;
    if (!Array.isArray(rules) || decl === undefined) return;
    const asRulesSee = root ? withTypeAndObjectMeta(node) : node;
    rules.forEach((entry, index) => {
      if (!isPlainObject(entry)) return;
      const rule = estimate(entry.rule, asRulesSee, decl);
      if (rule === undefined) return;
      const cardinality = place.cardinality ?? cardinalityOf(decl);
      const cost: RuleCost = {
        pointer: schemaPointer + toPointer([...place.path, 'x-kubernetes-validations', index]),
        rule: String(entry.rule).trim(),
        maxCost: rule.cost,
        cardinality,
        cost: guardedProduct(rule.cost, cardinality),
        missing: [...place.unboundedAbove, ...rule.missing],
      };
      const message = estimate(entry.messageExpression, asRulesSee, decl);
      if (message !== undefined) cost.message = { expression: String(entry.messageExpression).trim(), ...message };
      costs.push(cost);
    });
  };
  visit(schema, { path: [], decl: declOf(schema, true), cardinality: 1n, unboundedAbove: [], at: '' }, true);
  return costs;
}

/** An expression's estimate, or undefined when the API server does not compile it (it has no cost then). */
function estimate(text: unknown, schema: Node, decl: Decl): { cost: bigint; missing: Missing[] } | undefined {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  const analysed = analyseExpression(text.trim(), schema);
  if (!('parsed' in analysed)) return undefined;
  // A call of Kubernetes' that does not run here (two-variable comprehensions) is priced all the same.
  if (analysed.found.library.size === 0 && analysed.found.errors.length > 0) return undefined;
  const { cost, unbounded } = estimateCost(analysed.parsed.expr, decl);
  return { cost: cost.max, missing: [...unbounded].map((member) => ({ at: member.at || '/', bound: member.unbounded! })) };
}

/** How many values of a child a node holds (extractMaxElements): undefined for a list or map without a bound. */
function spread(node: Node): bigint | undefined {
  const limit = (value: unknown) => (typeof value === 'number' ? BigInt(Math.max(0, Math.trunc(value))) : undefined);
  if (node.type === 'array') return limit(node.maxItems);
  if (node.type === 'object' && node.additionalProperties !== undefined) return limit(node.maxProperties);
  return 1n;
}

/** multiplyWithOverflowGuard: 0 times anything is 0, an overflow is 2^64-1. */
const guardedProduct = (base: bigint, factor: bigint): bigint => (base === 0n ? 0n : mulU(base, factor));
