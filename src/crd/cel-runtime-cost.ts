/**
 * Rules planned with a cost tracker, so that a rule is stopped where the API server stops it: at
 * 1,000,000 per call (PerCallLimit), counted as cel-go's cost tracker counts (interpreter/
 * runtimecost.go) — 1 for each identifier and member read, 10 a list built, 30 a map, each call
 * by its function (cel-runtime-calls.ts), every iteration of a comprehension through the calls and
 * reads it evaluates; literals cost nothing, nor do lists, maps and conversions of literals only,
 * which cel-go's optimizer computes before a rule runs.
 *
 * @bufbuild/cel counts nothing: each node its planner made (cel-runtime-plan.ts) is made here to
 * charge its cost as it evaluates, calls before they run, attributes as they resolve. A charge past
 * the limit throws STOP, which ends the evaluation at once.
 */
import { celLibrary } from './cel-library.js';
import { callCost, resultCost } from './cel-runtime-calls.js';
import { precompiledRegex } from './cel-runtime-regex.js';

/** celconfig.PerCallLimit: what one rule may cost. */
export const PER_CALL_LIMIT = 1_000_000;
/** celconfig.RuntimeCELCostBudget: what all the rules of one custom resource may cost together. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;

/** cel-go's error when a rule costs more than the limit. */
export const COST_LIMIT_EXCEEDED = 'operation cancelled: actual cost limit exceeded';

/** The cost of one evaluation so far. */
export class CostTracker {
  cost = 0;
  exceeded = false;
  constructor(readonly limit = PER_CALL_LIMIT) {}
}

/** What a charge past the limit throws. */
export const STOP = Symbol('cost limit exceeded');
/** The evaluation in progress: rules run synchronously, one at a time. */
let active: CostTracker | undefined;

function charge(cost: number): void {
  if (active === undefined || cost === 0) return;
  active.cost += cost;
  if (active.cost > active.limit) {
    active.exceeded = true;
    throw STOP;
  }
}

type Node = Record<string, unknown> & { constructor: { name: string } };
type Evaluable = { eval(ctx: unknown): unknown };
const CONVERSIONS = new Set(['bool', 'bytes', 'double', 'duration', 'dyn', 'int', 'string', 'timestamp', 'type', 'uint']);

/** Whether cel-go's optimizer makes the node a constant: a literal, or a list, map or conversion of constants only. */
function folded(node: Node): boolean {
  switch (node.constructor.name) {
    case 'EvalConst':
      return true;
    case 'EvalList':
      return (node.elems as Node[]).every(folded);
    case 'EvalMap':
      return (node.keys as Node[]).every(folded) && (node.values as Node[]).every(folded);
    case 'EvalCall':
      return (
        CONVERSIONS.has(node.name as string) &&
        node.target === undefined &&
        (node.args as Node[]).length === 1 &&
        folded((node.args as Node[])[0]!)
      );
    default:
      return false;
  }
}

/** Makes `method` of `node` charge `cost` before it runs. */
function charging(node: Node, method: string, cost: number): void {
  if (cost === 0) return;
  const original = node[method] as (...args: unknown[]) => unknown;
  node[method] = function (this: unknown, ...args: unknown[]) {
    charge(cost);
    return original.apply(this, args);
  };
}

/** Type names as identifiers (`type(x) == string`): constants in cel-go. */
const TYPE_IDENTIFIERS = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type']);

/**
 * Makes every node below `node` (an Interpretable or an attribute) charge what cel-go's tracker
 * charges for it. `direct` is false for an attribute cel-go resolves without evaluating it (a
 * conditional's branch, an index read from a variable): its identifier is not charged, its
 * members and indexes are.
 */
export function instrument(node: unknown, seen: Set<unknown>, direct = true): void {
  if (typeof node !== 'object' || node === null || seen.has(node)) return;
  seen.add(node);
  const n = node as Node;
  const each = (children: unknown, evaluated = true) => (children as unknown[]).forEach((child) => instrument(child, seen, evaluated));
  switch (n.constructor.name) {
    case 'EvalConst':
    case 'EvalErr':
    case 'ErrorAttr':
      return;
    case 'StringAccess':
    case 'BoolAccess':
    case 'NumAccess':
    case 'IntAccess':
      // A member or index read: 1 when it is read (those after a failed one are not).
      return charging(n, 'access', 1);
    case 'EvalAttr':
      return instrument(n.attr, seen, direct);
    case 'EvalAccess':
      instrument(n.key, seen, false);
      return charging(n, 'access', 1);
    case 'MaybeAttr': {
      // An identifier: 1, unless it names a type; what is read from it charges as it is read.
      const candidates = n.attrs as Node[];
      for (const candidate of candidates) accesses((candidate.accesses as () => unknown[]).call(candidate), seen);
      const original = candidates.at(-1)!;
      const read = (original.accesses as () => unknown[]).call(original).length;
      const typeName = read === 0 && TYPE_IDENTIFIERS.has((original.nsNames as string[]).at(-1)!);
      return charging(n, 'resolve', direct && !typeName ? 1 : 0);
    }
    case 'RelativeAttr':
      instrument(n.operand, seen);
      accesses(n.accesses_ as unknown[], seen);
      return charging(n, 'resolve', direct ? 1 : 0);
    case 'ConditionalAttr':
      instrument(n.cond, seen);
      instrument(n.t, seen, false);
      return instrument(n.f, seen, false);
    case 'EvalHas':
      // has() costs nothing in Kubernetes (PresenceTestHasCost(false)); what it reads does.
      return instrument(n.attr, seen);
    case 'EvalCall':
      instrument(n.target, seen);
      each(n.args);
      if (folded(n) || n.func === undefined) return;
      return counted(n);
    case 'EvalList':
      each(n.elems);
      return folded(n) ? undefined : charging(n, 'eval', 10);
    case 'EvalMap':
      each(n.keys);
      each(n.values);
      return folded(n) ? undefined : charging(n, 'eval', 30);
    case 'EvalObj':
      each(n.values);
      return charging(n, 'eval', 40);
    case 'EvalFold':
      return each([n.iterRange, n.accu, n.cond, n.step, n.result]);
    case 'EvalAnd':
    case 'EvalOr':
      return each(n.args);
    case 'EvalNotStrictlyFalse':
      instrument(n.arg, seen);
      return charging(n, 'eval', 1);
    default:
      throw new Error(`@bufbuild/cel planned a ${n.constructor.name}, which the cost tracker does not know`);
  }
}

/** The members and indexes an attribute reads; an index computed by an expression (an attribute over it) is read at 1 too. */
function accesses(list: unknown[], seen: Set<unknown>): void {
  for (const access of list) {
    const computed = ['EvalAttr', 'RelativeAttr'].includes((access as Node).constructor.name) && !seen.has(access);
    instrument(access, seen, false);
    if (computed) charging(access as Node, 'access', 1);
  }
}

/**
 * A call evaluates its target and every argument (as cel-go does, even after an error), charges its
 * function's cost from them before it runs (so that a call over the limit never builds its result),
 * then runs as @bufbuild/cel's EvalCall does. `x in [literals]` is a set lookup in cel-go: free.
 * A regex call with a literal pattern runs on the pattern compiled here, once (cel-runtime-regex.ts).
 */
function counted(call: Node): void {
  const { cel } = celLibrary();
  const fn = call.name as string;
  const target = call.target as Evaluable | undefined;
  const args = call.args as Evaluable[];
  const group = call.func as { call(id: unknown, target: unknown, values: unknown[]): unknown };
  const free = fn === '@in' && args.length === 2 && folded(args[1] as unknown as Node);
  const regex = target !== undefined ? precompiledRegex(fn, args) : undefined;
  call.eval = (ctx: unknown) => {
    const self = target?.eval(ctx);
    const values = args.map((arg) => arg.eval(ctx));
    if (active !== undefined && !free)
      charge(callCost(fn, target !== undefined, (target !== undefined ? [self, ...values] : values) as never));
    if (cel.isCelError(self)) return self;
    const error = values.find((value) => cel.isCelError(value));
    if (error !== undefined) return error;
    const result = (regex && runRegex(regex, self, values, call.id as number)) ?? group.call(call.id, self, values);
    if (result === undefined) {
      const on = self !== undefined ? `${cel.celType(self as never)}.` : '';
      const types = values.map((value) => cel.celType(value as never).name).join(', ');
      return cel.celError(`found no matching overload for '${fn}' applied to '${on}(${types})'`, call.id as number);
    }
    if (active !== undefined) charge(resultCost(fn, result));
    return result;
  };
}

/** A precompiled regex call; a throw is the call's error, as @bufbuild/cel makes one of a function's throw. */
function runRegex(regex: (text: unknown, values: unknown[]) => unknown, self: unknown, values: unknown[], id: number): unknown {
  const { cel } = celLibrary();
  try {
    const value = regex(self, values);
    return Array.isArray(value) ? cel.celList(value) : value;
  } catch (error) {
    return cel.celError(error as never, id);
  }
}

/** Runs `evaluate` with its charges counted on `tracker` (none without one); STOP, past its limit, is the caller's to catch. */
export function tracking<T>(tracker: CostTracker | undefined, evaluate: () => T): T {
  const outer = active;
  active = tracker;
  try {
    return evaluate();
  } finally {
    active = outer;
  }
}
