/**
 * What the API server's type check would say of a CEL expression, as far as it can be said without
 * CEL types: whether it reads `oldSelf`, which of Kubernetes' library functions it calls, and its
 * unknown functions, identifiers and members (members of `self` and `oldSelf` by the schema).
 */
import { isPlainObject } from '../util/json.js';
import { celName, withTypeAndObjectMeta } from './cel-value.js';
import { KUBERNETES_LIBRARY, knownFunction, TWO_VARIABLE_MACROS, TYPE_NAMES } from './cel-environment.js';
import { TYPE_IDENTIFIERS, TYPE_NAMES as KUBERNETES_TYPES } from './cel-kubernetes/opaque.js';
import { compileRegexp } from './cel-kubernetes/regex.js';

type Node = Record<string, unknown>;

/** The parts of a parsed CEL expression this module reads (cel.expr.Expr). */
export interface Expr {
  exprKind:
    | { case: 'identExpr'; value: { name: string } }
    | { case: 'selectExpr'; value: { operand?: Expr; field: string; testOnly: boolean } }
    | { case: 'callExpr'; value: { target?: Expr; function: string; args: Expr[] } }
    | { case: 'listExpr'; value: { elements: Expr[] } }
    | { case: 'structExpr'; value: { messageName?: string; entries: Array<{ keyKind: { case: string; value?: unknown }; value?: Expr }> } }
    | {
        case: 'comprehensionExpr';
        value: {
          iterVar: string;
          iterVar2?: string;
          iterRange?: Expr;
          accuVar: string;
          accuInit?: Expr;
          loopCondition?: Expr;
          loopStep?: Expr;
          result?: Expr;
        };
      }
    | { case: 'constExpr' | undefined; value?: unknown };
}

export interface Analysis {
  /** Whether it reads `oldSelf`: a rule that does is a transition rule. */
  oldSelf: boolean;
  library: Set<string>;
  errors: string[];
}

/**
 * What the API server's type check would say, as far as it can be said without CEL types: unknown
 * functions and identifiers, and members the schema does not declare on paths from `self` or
 * `oldSelf` (which has the schema of self).
 */
export function analyse(root: Expr, schema: Node): Analysis {
  const found: Analysis = { oldSelf: false, library: new Set<string>(), errors: [] };

  /** Walks `expr` with the variables in scope (name → schema, or null when untyped); returns its schema when known. */
  const walk = (expr: Expr | undefined, scope: Map<string, Node | null>): Node | undefined => {
    if (expr === undefined) return undefined;
    const kind = expr.exprKind;
    switch (kind.case) {
      case 'identExpr': {
        const name = kind.value.name;
        if (name === 'oldSelf') found.oldSelf = true;
        if (scope.has(name)) return scope.get(name) ?? undefined;
        else if (!TYPE_NAMES.has(name) && !TYPE_IDENTIFIERS.has(name)) found.errors.push(`undeclared reference to '${name}'`);
        return undefined;
      }
      case 'selectExpr': {
        const operand = kind.value.operand;
        const qualified = qualifiedName(expr);
        if (qualified !== undefined && !scope.has(qualified.split('.')[0]!)) {
          if (!TYPE_IDENTIFIERS.has(qualified)) found.errors.push(`undeclared reference to '${qualified}'`);
          return undefined;
        }
        return member(walk(operand, scope), kind.value.field);
      }
      case 'callExpr': {
        const { target, function: name, args } = kind.value;
        const namespace = target !== undefined ? qualifiedName(target) : undefined;
        const inNamespace = namespace !== undefined && !scope.has(namespace.split('.')[0]!);
        const fullName = inNamespace ? `${namespace}.${name}` : name;
        if (!inNamespace) walk(target, scope);
        const argSchemas = args.map((arg) => walk(arg, scope));
        if (KUBERNETES_LIBRARY.has(fullName) && !knownFunction(fullName)) found.library.add(`${fullName}()`);
        else if (TWO_VARIABLE_MACROS.has(name) && target !== undefined && args.length === 3) found.library.add(`two-variable ${name}()`);
        else if (!knownFunction(fullName)) found.errors.push(`undeclared reference to '${fullName}'`);
        const pattern = LITERAL_PATTERNS.has(name) && target !== undefined ? stringConstant(args[0]) : undefined;
        if (pattern !== undefined) {
          // Go compiles a literal pattern with the rule: one it refuses fails the rule's compilation.
          const compiled = compileRegexp(pattern);
          if (typeof compiled === 'string') found.errors.push(compiled);
        }
        if (name === '_[_]' && args.length === 2) {
          const container = argSchemas[0];
          if (container?.type === 'array' && isPlainObject(container.items)) return container.items;
          if (isPlainObject(container?.additionalProperties)) return container!.additionalProperties as Node;
        }
        return undefined;
      }
      case 'listExpr':
        for (const element of kind.value.elements) walk(element, scope);
        return undefined;
      case 'structExpr':
        if ((KUBERNETES_TYPES as readonly string[]).includes(kind.value.messageName ?? ''))
          found.errors.push(`'${kind.value.messageName}' is not a message type`);
        for (const entry of kind.value.entries) {
          if (entry.keyKind.case === 'mapKey') walk(entry.keyKind.value as Expr, scope);
          walk(entry.value, scope);
        }
        return undefined;
      case 'comprehensionExpr': {
        const { iterVar, iterVar2, iterRange, accuVar, accuInit, loopCondition, loopStep, result } = kind.value;
        const range = walk(iterRange, scope);
        walk(accuInit, scope);
        const inner = new Map(scope);
        // Over a list the variable is an element; over a map, a key (a string).
        const element = range?.type === 'array' && isPlainObject(range.items) ? range.items : null;
        inner.set(iterVar, element);
        const value = isPlainObject(range?.additionalProperties) ? (range!.additionalProperties as Node) : null;
        if (iterVar2) inner.set(iterVar2, range?.type === 'array' ? element : value);
        inner.set(accuVar, null);
        walk(loopCondition, inner);
        walk(loopStep, inner);
        const after = new Map(scope);
        after.set(accuVar, null);
        walk(result, after);
        return undefined;
      }
      default:
        return undefined;
    }
  };

  /** A member of a value of schema `container` by its CEL name; an error when the schema has no such member. */
  const member = (container: Node | undefined, field: string): Node | undefined => {
    if (container === undefined) return undefined;
    if (container['x-kubernetes-embedded-resource'] === true) container = withTypeAndObjectMeta(container);
    if (isPlainObject(container.properties)) {
      for (const [name, schema] of Object.entries(container.properties)) {
        if (celName(name) === field && isPlainObject(schema)) return schema;
      }
      found.errors.push(`undefined field '${field}'`);
      return undefined;
    }
    if (isPlainObject(container.additionalProperties)) return container.additionalProperties;
    return undefined;
  };

  walk(
    root,
    new Map([
      ['self', schema],
      ['oldSelf', schema],
    ]),
  );
  return found;
}

/** The functions whose first argument is a regular expression: matches, and the regex library's find and findAll. */
const LITERAL_PATTERNS = new Set(['matches', 'find', 'findAll']);

/** The value of a string literal, else undefined. */
function stringConstant(expr: Expr | undefined): string | undefined {
  if (expr?.exprKind.case !== 'constExpr') return undefined;
  const constant = expr.exprKind.value as { constantKind?: { case?: string; value?: unknown } } | undefined;
  return constant?.constantKind?.case === 'stringValue' ? (constant.constantKind.value as string) : undefined;
}

/** `a.b.c` for a chain of selections on an identifier, else undefined. */
function qualifiedName(expr: Expr): string | undefined {
  const kind = expr.exprKind;
  if (kind.case === 'identExpr') return kind.value.name;
  if (kind.case === 'selectExpr' && !kind.value.testOnly && kind.value.operand !== undefined) {
    const operand = qualifiedName(kind.value.operand);
    return operand === undefined ? undefined : `${operand}.${kind.value.field}`;
  }
  return undefined;
}
