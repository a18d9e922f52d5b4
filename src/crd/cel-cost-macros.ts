/**
 * Kubernetes' two-variable comprehensions (ext/comprehensions.go: `all(k, v, …)`, `exists`,
 * `existsOne`, `transformList`, `transformMap`, `transformMapEntry`), which @bufbuild/cel's parser
 * leaves as calls, expanded as cel-go's macros expand them: the estimate prices the comprehension.
 */
import type { Expr } from './cel-type-check.js';

type Comprehension = Extract<Expr['exprKind'], { case: 'comprehensionExpr' }>['value'];

export const ACCUMULATOR = '@result';
const ident = (name: string): Expr => ({ exprKind: { case: 'identExpr', value: { name } } });
const call = (fn: string, ...args: Expr[]): Expr => ({ exprKind: { case: 'callExpr', value: { function: fn, args } } });
const literal = (kind: 'boolValue' | 'int64Value', value: boolean | bigint): Expr =>
  ({ exprKind: { case: 'constExpr', value: { constantKind: { case: kind, value } } } }) as Expr;
const emptyList = (): Expr => ({ exprKind: { case: 'listExpr', value: { elements: [] } } });
const emptyMap = (): Expr => ({ exprKind: { case: 'structExpr', value: { entries: [] } } });
const comprehension = (value: Comprehension): Expr => ({ exprKind: { case: 'comprehensionExpr', value } });

/** ext/comprehensions.go's macros: receiver, two iteration variables, the rest. */
function expandTwoVariable(target: Expr, fn: string, args: Expr[]): Expr | undefined {
  const names = args.slice(0, 2).map((arg) => (arg.exprKind.case === 'identExpr' ? arg.exprKind.value.name : undefined));
  if (names[0] === undefined || names[1] === undefined || args.length < 3) return undefined;
  const [iterVar, iterVar2] = names as [string, string];
  const accu = () => ident(ACCUMULATOR);
  const loop = { iterVar, iterVar2, iterRange: target, accuVar: ACCUMULATOR };
  const [filter, transform] = args.length === 4 ? [args[2], args[3]!] : [undefined, args[2]!];
  const filtered = (step: Expr) => (filter === undefined ? step : call('_?_:_', filter, step, accu()));
  switch (`${fn}/${args.length}`) {
    case 'all/3':
      return comprehension({
        ...loop,
        accuInit: literal('boolValue', true),
        loopCondition: call('@not_strictly_false', accu()),
        loopStep: call('_&&_', accu(), args[2]!),
        result: accu(),
      });
    case 'exists/3':
      return comprehension({
        ...loop,
        accuInit: literal('boolValue', false),
        loopCondition: call('@not_strictly_false', call('!_', accu())),
        loopStep: call('_||_', accu(), args[2]!),
        result: accu(),
      });
    case 'existsOne/3':
    case 'exists_one/3': {
      const step = call('_?_:_', args[2]!, call('_+_', accu(), literal('int64Value', 1n)), accu());
      return comprehension({
        ...loop,
        accuInit: literal('int64Value', 0n),
        loopCondition: literal('boolValue', true),
        loopStep: step,
        result: call('_==_', accu(), literal('int64Value', 1n)),
      });
    }
    case 'transformList/3':
    case 'transformList/4': {
      const step = filtered(call('_+_', accu(), { exprKind: { case: 'listExpr', value: { elements: [transform] } } }));
      return comprehension({ ...loop, accuInit: emptyList(), loopCondition: literal('boolValue', true), loopStep: step, result: accu() });
    }
    case 'transformMap/3':
    case 'transformMap/4':
    case 'transformMapEntry/3':
    case 'transformMapEntry/4': {
      const insert =
        fn === 'transformMap' ? call('cel.@mapInsert', accu(), ident(iterVar), transform) : call('cel.@mapInsert', accu(), transform);
      return comprehension({
        ...loop,
        accuInit: emptyMap(),
        loopCondition: literal('boolValue', true),
        loopStep: filtered(insert),
        result: accu(),
      });
    }
  }
  return undefined;
}

/** A copy of `expr` with two-variable comprehensions expanded. */
export function expandMacros(expr: Expr): Expr {
  const kind = expr.exprKind;
  switch (kind.case) {
    case 'selectExpr':
      return {
        exprKind: { case: 'selectExpr', value: { ...kind.value, operand: kind.value.operand && expandMacros(kind.value.operand) } },
      };
    case 'callExpr': {
      const target = kind.value.target && expandMacros(kind.value.target);
      const args = kind.value.args.map(expandMacros);
      const expanded = target === undefined ? undefined : expandTwoVariable(target, kind.value.function, args);
      return expanded ?? { exprKind: { case: 'callExpr', value: { ...kind.value, target, args } } };
    }
    case 'listExpr':
      return { exprKind: { case: 'listExpr', value: { ...kind.value, elements: kind.value.elements.map(expandMacros) } } };
    case 'structExpr': {
      const entries = kind.value.entries.map((entry) => ({
        ...entry,
        keyKind: entry.keyKind.case === 'mapKey' ? { ...entry.keyKind, value: expandMacros(entry.keyKind.value as Expr) } : entry.keyKind,
        value: entry.value && expandMacros(entry.value),
      }));
      return { exprKind: { case: 'structExpr', value: { ...kind.value, entries } } };
    }
    case 'comprehensionExpr': {
      const value = kind.value;
      const each = (part: Expr | undefined) => part && expandMacros(part);
      return comprehension({
        ...value,
        iterRange: each(value.iterRange),
        accuInit: each(value.accuInit),
        loopCondition: each(value.loopCondition),
        loopStep: each(value.loopStep),
        result: each(value.result),
      });
    }
    default:
      return expr;
  }
}
