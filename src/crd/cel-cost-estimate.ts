/**
 * The worst-case cost of one CEL expression, as the API server estimates it when it takes a CRD:
 * cel-go's checker/cost.go ported over @bufbuild/cel's parsed AST, typed by cel-cost-check.ts,
 * with sizes from the schema (cel-cost-sizes.ts) and call costs from cel-cost-calls.ts. Each
 * expression's cost is a range; a comprehension costs its loop times the most elements its range
 * may hold, so unbounded lists and strings give estimates far over the budget.
 */
import { callCost } from './cel-cost-calls.js';
import type { AstNode, EntrySize, Sizing } from './cel-cost-estimator.js';
import { check, type Checked } from './cel-cost-check.js';
import { ACCUMULATOR } from './cel-cost-macros.js';
import {
  add,
  fixed,
  LIST_CREATE_COST,
  MAP_CREATE_COST,
  MAX_UINT64,
  multiply,
  type Range,
  SELECT_AND_IDENT_COST,
  STRUCT_CREATE_COST,
  sum,
  union,
  UNKNOWN,
  ZERO,
} from './cel-cost-range.js';
import { append, type GoPath, read, single } from './cel-cost-path.js';
import { declAt, literalSize } from './cel-cost-sizes.js';
import { type Decl, DYN, isScalar } from './cel-cost-types.js';
import type { Expr } from './cel-type-check.js';

interface LocalVar {
  path: GoPath | undefined;
  size: Range | undefined;
  entrySize: EntrySize | undefined;
}

export interface Estimate {
  cost: Range;
  /** Schema nodes whose bound the estimate had to guess (no maxItems, maxLength or maxProperties). */
  unbounded: Set<Decl>;
}

const isAccumulator = (name: string | undefined) => name === ACCUMULATOR || name === '__result__';

/** The estimated cost of `parsed`, an expression over `self` (and `oldSelf`) of the schema node `self`. */
export function estimateCost(parsed: Expr, self: Decl): Estimate {
  const coster = new Coster(check(parsed, self.type), self);
  return { cost: coster.cost(coster.checked.expr), unbounded: coster.unbounded };
}

class Coster implements Sizing {
  readonly unbounded = new Set<Decl>();
  private readonly paths = new Map<Expr, GoPath | undefined>();
  private readonly sizes = new Map<Expr, Range>();
  private readonly entries = new Map<Expr, EntrySize>();
  private readonly locals = new Map<string, LocalVar[]>();

  constructor(
    readonly checked: Checked,
    private readonly root: Decl,
  ) {}

  cost(e: Expr | undefined): Range {
    if (e === undefined) return ZERO;
    const kind = e.exprKind;
    switch (kind.case) {
      case 'constExpr':
        return ZERO;
      case 'identExpr': {
        const local = this.local(kind.value.name);
        this.paths.set(e, local === undefined ? single(kind.value.name) : local.path);
        return fixed(SELECT_AND_IDENT_COST);
      }
      case 'selectExpr': {
        const operand = kind.value.operand!;
        // Presence tests cost nothing in Kubernetes (PresenceTestHasCost(false)).
        if (kind.value.testOnly) return this.cost(operand);
        let cost = this.cost(operand);
        const operandKind = this.type(operand).kind;
        if (operandKind === 'map' || operandKind === 'object') cost = add(cost, fixed(SELECT_AND_IDENT_COST));
        this.paths.set(e, append(this.path(operand), kind.value.field));
        return cost;
      }
      case 'callExpr':
        return this.call(e, kind.value);
      case 'listExpr': {
        const elements = kind.value.elements;
        let item: Range = { min: elements.length === 0 ? 0n : MAX_UINT64, max: 0n };
        const costs = elements.map((element) => {
          const cost = this.cost(element);
          item = union(item, this.sizeOrUnknown(element));
          return cost;
        });
        this.setEntrySize(e, { container: 'list', key: fixed(1n), val: item });
        return add(sum(costs), fixed(LIST_CREATE_COST));
      }
      case 'structExpr': {
        const entries = kind.value.entries;
        if ((kind.value as { messageName?: string }).messageName)
          return add(sum(entries.map((entry) => this.cost(entry.value))), fixed(STRUCT_CREATE_COST));
        let key: Range = { min: entries.length === 0 ? 0n : MAX_UINT64, max: 0n };
        let val = key;
        const costs = entries.map((entry) => {
          const cost = add(this.cost(entry.keyKind.value as Expr), this.cost(entry.value));
          key = union(key, this.sizeOrUnknown(entry.keyKind.value as Expr));
          val = union(val, this.sizeOrUnknown(entry.value!));
          return cost;
        });
        this.setEntrySize(e, { container: 'map', key, val });
        return add(sum(costs), fixed(MAP_CREATE_COST));
      }
      case 'comprehensionExpr':
        return this.comprehension(e, kind.value);
      default:
        return ZERO;
    }
  }

  private call(e: Expr, value: { target?: Expr; args: Expr[] }): Range {
    const fn = this.checked.functions.get(e)!;
    if (fn === 'dyn' && value.args.length === 1) {
      // dyn() only turns type checking off: its argument's cost and sizes, and 1.
      const cost = this.cost(value.args[0]);
      this.setSize(e, this.computeSize(value.args[0]!));
      this.setEntrySize(e, this.entrySize(value.args[0]!));
      return add(fixed(1n), cost);
    }
    const argCosts: Range[] = [];
    const args: AstNode[] = [];
    for (const arg of value.args) {
      argCosts.push(this.cost(arg));
      args.push(this.node(arg));
    }
    const overloads = this.checked.overloads.get(e) ?? [];
    if (overloads.length === 0) return ZERO;
    let cost = ZERO;
    let target: AstNode | undefined;
    if (value.target !== undefined && !this.checked.global.has(e)) {
      cost = this.cost(value.target);
      target = this.node(value.target);
    }
    let fnCost: Range = { min: MAX_UINT64, max: 0n };
    let resultSize: Range | undefined;
    for (const overload of overloads) {
      const estimate = callCost(this, e, fn, overload, target, args, argCosts);
      fnCost = union(fnCost, estimate.cost);
      if (estimate.resultSize !== undefined)
        resultSize = resultSize === undefined ? estimate.resultSize : union(resultSize, estimate.resultSize);
      if ((overload === 'index_list' || overload === 'index_map') && value.args.length > 0) {
        resultSize = this.entrySize(value.args[0]!)?.val;
        this.paths.set(e, append(this.path(value.args[0]!), overload === 'index_list' ? '@items' : '@values'));
      }
      resultSize ??= this.computeSize(e);
    }
    this.setSize(e, resultSize);
    return add(cost, fnCost);
  }

  private comprehension(e: Expr, c: Extract<Expr['exprKind'], { case: 'comprehensionExpr' }>['value']): Range {
    const range = c.iterRange!;
    let cost = add(this.cost(range), this.cost(c.accuInit));
    this.pushLocal(c.accuVar, c.accuInit!);
    const entry = this.entrySize(range);
    const container = entry?.container ?? this.type(range).kind;
    const push = (name: string, size: Range | undefined, step: string) =>
      this.push(name, { path: append(this.path(range), step), size, entrySize: undefined });
    if (c.iterVar2) {
      push(c.iterVar, entry?.key, container === 'list' ? '@indices' : '@keys');
      push(c.iterVar2, entry?.val, container === 'list' ? '@items' : '@values');
    } else if (container === 'list') push(c.iterVar, entry?.val, '@items');
    else push(c.iterVar, entry?.key, '@keys');
    const loop = this.cost(c.loopCondition);
    const step = this.cost(c.loopStep);
    this.pop(c.iterVar);
    if (c.iterVar2) this.pop(c.iterVar2);
    cost = add(cost, this.cost(c.result));
    this.pop(c.accuVar);
    const count = this.sizeOrUnknown(range);
    cost = add(cost, multiply(count, add(step, loop)));
    const init = c.accuInit!.exprKind.case;
    if (init === 'constExpr') this.setSize(e, this.computeSize(c.accuInit!));
    else if (init === 'listExpr' || init === 'structExpr') {
      this.setSize(e, count);
      this.setEntrySize(e, this.entrySize(c.loopStep!));
    }
    return cost;
  }

  private type = (e: Expr) => this.checked.types.get(e) ?? DYN;
  // Local variables (comprehension variables, accumulators) as a stack a name, for nested scopes.
  private local = (name: string): LocalVar | undefined => this.locals.get(name)?.at(-1);
  private push = (name: string, local: LocalVar) => void this.locals.set(name, [...(this.locals.get(name) ?? []), local]);
  private pop = (name: string) => void this.locals.get(name)?.pop();

  private pushLocal(name: string, e: Expr): void {
    this.push(name, { path: this.path(e), size: this.computeSize(e), entrySize: this.entrySize(e) });
  }

  /** getPath: a local variable's path, else the expression's; Go slices, which later appends may overwrite. */
  private path(e: Expr): GoPath | undefined {
    if (e.exprKind.case === 'identExpr') {
      const local = this.local(e.exprKind.value.name);
      if (local !== undefined) return local.path;
    }
    return this.paths.get(e);
  }

  private node(e: Expr): AstNode {
    const path = read(this.path(e));
    return {
      path: path.length > 0 && isAccumulator(path[0]) ? undefined : path,
      type: this.type(e),
      expr: e,
      computed: this.computeSize(e),
    };
  }

  private setSize = (e: Expr, size: Range | undefined) => void (size !== undefined && this.sizes.set(e, size));
  private sizeOrUnknown = (e: Expr): Range => this.computeSize(e) ?? UNKNOWN;

  private computeSize(e: Expr): Range | undefined {
    const known = this.sizes.get(e) ?? literalSize(e);
    if (known !== undefined) return known;
    const estimated = this.estimateSize({ path: read(this.path(e)), type: this.type(e), expr: e, computed: undefined });
    if (estimated !== undefined) {
      this.sizes.set(e, estimated);
      return estimated;
    }
    if (isScalar(this.type(e))) return fixed(1n);
    return e.exprKind.case === 'identExpr' ? this.local(e.exprKind.value.name)?.size : undefined;
  }

  estimateSize(node: AstNode): Range | undefined {
    if (node.path === undefined || node.path.length === 0) return undefined;
    const decl = declAt(this.root, node.path);
    if (decl === undefined) return undefined;
    if (decl.unbounded !== undefined) this.unbounded.add(decl);
    return { min: 0n, max: decl.maxElements };
  }

  entrySize(e: Expr): EntrySize | undefined {
    const found = this.entries.get(e);
    if (found !== undefined) return found;
    return e.exprKind.case === 'identExpr' ? this.local(e.exprKind.value.name)?.entrySize : undefined;
  }

  setEntrySize = (e: Expr, size: EntrySize | undefined) => void (size !== undefined && this.entries.set(e, size));
}
