/**
 * A parsed rule typed as cel-go's checker types it, for the cost estimate: each expression's type,
 * each call's possible overloads and its function's full name (`format.named`, not a member call
 * on `format`); two-variable comprehensions expanded first (cel-cost-macros.ts).
 */
import { isPlainObject } from '../util/json.js';
import { BOOL, BYTES, type CelType, DOUBLE, DYN, FREE, INT, join, list, map, NULL, STRING, TYPE, UINT } from './cel-cost-types.js';
import { expandMacros } from './cel-cost-macros.js';
import { signature } from './cel-cost-signatures.js';
import type { Expr } from './cel-type-check.js';
import { TYPE_NAMES } from './cel-environment.js';

export interface Checked {
  /** The expression with two-variable comprehensions expanded: what is typed and costed. */
  expr: Expr;
  types: Map<Expr, CelType>;
  overloads: Map<Expr, string[]>;
  /** A call's function as the checker names it: qualified when its target is a namespace. */
  functions: Map<Expr, string>;
  /** Calls whose target is a namespace, not an operand. */
  global: Set<Expr>;
}

type Scope = Map<string, CelType>;

/** `a.b.c` for a chain of selections on an identifier not in scope: a namespace; else undefined. */
function namespace(expr: Expr, scope: Scope): string | undefined {
  const kind = expr.exprKind;
  if (kind.case === 'identExpr') return scope.has(kind.value.name) ? undefined : kind.value.name;
  if (kind.case === 'selectExpr' && !kind.value.testOnly && kind.value.operand !== undefined) {
    const operand = namespace(kind.value.operand, scope);
    return operand === undefined ? undefined : `${operand}.${kind.value.field}`;
  }
  return undefined;
}

function literalType(value: unknown): CelType {
  const kind = isPlainObject(value) && isPlainObject(value.constantKind) ? value.constantKind.case : undefined;
  const types: Record<string, CelType> = {
    int64Value: INT,
    uint64Value: UINT,
    doubleValue: DOUBLE,
    stringValue: STRING,
    bytesValue: BYTES,
    boolValue: BOOL,
    nullValue: NULL,
  };
  return types[String(kind)] ?? DYN;
}

/** Types a parsed rule with `self` (and `oldSelf`) of type `self`. */
export function check(parsed: Expr, self: CelType): Checked {
  const expr = expandMacros(parsed);
  const checked: Checked = { expr, types: new Map(), overloads: new Map(), functions: new Map(), global: new Set() };
  const member = (type: CelType, field: string): CelType => {
    if (type.kind === 'object') return type.decl?.fields?.get(field)?.type ?? DYN;
    return type.kind === 'map' ? type.value : DYN;
  };
  const walk = (e: Expr | undefined, scope: Scope): CelType => {
    if (e === undefined) return DYN;
    const type = typeOf(e, scope);
    checked.types.set(e, type);
    return type;
  };
  const typeOf = (e: Expr, scope: Scope): CelType => {
    const kind = e.exprKind;
    switch (kind.case) {
      case 'constExpr':
        return literalType(kind.value);
      case 'identExpr':
        return scope.get(kind.value.name) ?? (TYPE_NAMES.has(kind.value.name) ? TYPE : DYN);
      case 'selectExpr': {
        const operand = walk(kind.value.operand, scope);
        return kind.value.testOnly ? BOOL : member(operand, kind.value.field);
      }
      case 'callExpr': {
        const { target, function: fn, args } = kind.value;
        const ns = target === undefined ? undefined : namespace(target, scope);
        const name = ns === undefined ? fn : `${ns}.${fn}`;
        if (ns !== undefined) checked.global.add(e);
        const targetType = target === undefined || ns !== undefined ? undefined : walk(target, scope);
        const argTypes = args.map((arg) => walk(arg, scope));
        const found = signature(name, targetType, argTypes);
        checked.functions.set(e, name);
        checked.overloads.set(e, found.overloads);
        return found.result;
      }
      case 'listExpr':
        return list(kind.value.elements.reduce<CelType>((elem, element) => join(elem, walk(element, scope)), FREE));
      case 'structExpr': {
        if ((kind.value as { messageName?: string }).messageName) {
          for (const entry of kind.value.entries) walk(entry.value, scope);
          return { kind: 'object', name: String((kind.value as { messageName?: string }).messageName) };
        }
        let [key, value] = [FREE, FREE];
        for (const entry of kind.value.entries) {
          key = join(key, walk(entry.keyKind.value as Expr, scope));
          value = join(value, walk(entry.value, scope));
        }
        return map(key, value);
      }
      case 'comprehensionExpr': {
        const c = kind.value;
        const range = walk(c.iterRange, scope);
        const init = walk(c.accuInit, scope);
        const inner = new Map(scope);
        const [first, second] = range.kind === 'list' ? [INT, range.elem] : range.kind === 'map' ? [range.key, range.value] : [DYN, DYN];
        if (c.iterVar2) inner.set(c.iterVar, first).set(c.iterVar2, second);
        else inner.set(c.iterVar, range.kind === 'list' ? second : first);
        inner.set(c.accuVar, init);
        walk(c.loopCondition, inner);
        const accu = join(init, walk(c.loopStep, inner));
        return walk(c.result, new Map(scope).set(c.accuVar, accu));
      }
      default:
        return DYN;
    }
  };
  walk(
    expr,
    new Map([
      ['self', self],
      ['oldSelf', self],
    ]),
  );
  return checked;
}
