/**
 * The x-kubernetes-validations rules of a CRD version, compiled once with @bufbuild/cel and run on
 * every rendered manifest as the API server runs them on a create: each rule with `self` bound to
 * the value at its schema node (every element under items, every value under a map), its `message`
 * (or messageExpression) as the problem's detail. Transition rules (oldSelf) have nothing to compare
 * on a create, and rules calling Kubernetes' own CEL libraries (quantity, url, ip …) cannot run
 * here: both are skipped and listed, never guessed. A rule that does not compile is a CRD problem.
 */
import { celEnv, type CelInput, isCelError, parse, plan } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import type { Problem } from '../render/render-error.js';
import { isPlainObject, type JsonObject, toPointer } from '../util/json.js';
import type { CrdProblem } from './crd.js';
import { CelValues, celName, withTypeAndObjectMeta } from './cel-value.js';
import { fieldPathExists, parseFieldPath } from './field-path.js';
import { withDefaults, withinBounds } from './structural-value.js';

type Node = Record<string, unknown>;

export interface SkippedRule {
  /** JSON Pointer of the rule in the CRD file. */
  pointer: string;
  rule: string;
  reason: string;
}

/** A failed rule: a problem of the manifest, with the rule's reason when it gives one. */
export interface RuleProblem extends Problem {
  reason?: string;
}

interface CompiledRule {
  rule: string;
  program: Program;
  message: string | undefined;
  messageProgram: Program | undefined;
  fieldPath: string[];
  reason: string | undefined;
}

type Program = (bindings: { self: CelInput }) => unknown;

/** A schema node on the way to rules: its own rules, and the members below it that have some. */
interface RuleNode {
  schema: Node;
  rules: CompiledRule[];
  properties: Map<string, RuleNode>;
  items: RuleNode | undefined;
  additional: RuleNode | undefined;
}

const ENV = celEnv({ funcs: strings });

/**
 * Kubernetes' CEL libraries beyond what @bufbuild/cel has (lists, regex, urls, quantity, ip, cidr,
 * format, semver, sets, math, encoders, two-variable comprehensions): a rule calling one is valid in
 * a cluster but cannot be evaluated here.
 */
const KUBERNETES_LIBRARY = new Set([
  'isSorted', 'sum', 'min', 'max', 'find', 'findAll', 'reverse',
  'url', 'isURL', 'getScheme', 'getHost', 'getHostname', 'getPort', 'getEscapedPath', 'getQuery',
  'quantity', 'isQuantity', 'sign', 'isGreaterThan', 'isLessThan', 'compareTo', 'add', 'sub', 'asInteger', 'asApproximateFloat', 'isInteger',
  'ip', 'isIP', 'ip.isCanonical', 'family', 'isUnspecified', 'isLoopback', 'isLinkLocalMulticast', 'isLinkLocalUnicast', 'isGlobalUnicast',
  'cidr', 'isCIDR', 'containsIP', 'containsCIDR', 'masked', 'prefixLength',
  'format.named', 'format.dns1123Label', 'format.dns1123Subdomain', 'format.dns1035Label', 'format.qualifiedName', 'format.dns1123LabelPrefix',
  'format.dns1123SubdomainPrefix', 'format.dns1035LabelPrefix', 'format.labelValue', 'format.uri', 'format.uuid', 'format.byte', 'format.date', 'format.datetime', 'validate',
  'semver', 'isSemver', 'major', 'minor', 'patch',
  'sets.contains', 'sets.equivalent', 'sets.intersects',
  'math.greatest', 'math.least', 'math.ceil', 'math.floor', 'math.round', 'math.trunc', 'math.abs', 'math.sign', 'math.isInf', 'math.isNaN', 'math.isFinite',
  'math.bitAnd', 'math.bitOr', 'math.bitXor', 'math.bitNot', 'math.bitShiftLeft', 'math.bitShiftRight', 'math.sqrt',
  'base64.encode', 'base64.decode', 'transformList', 'transformMap', 'transformMapEntry', 'getField',
]);
/** Names @bufbuild/cel has for strings only, which Kubernetes' lists library also gives lists. */
const LIST_OVERLOADS = new Set(['indexOf', 'lastIndexOf']);
/** Calls the planner itself handles (operators and macros' helpers), not found among the functions. */
const OPERATORS = new Set(['_&&_', '_||_', '_?_:_', '_[_]', '_[?_]', '_?._', '@not_strictly_false', '__not_strictly_false__']);
/** Identifiers that name types (`type(x) == string`). */
const TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);

export class CelRules {
  /** Rules that do not compile, as the API server would refuse the CRD for them. */
  readonly problems: CrdProblem[] = [];
  /** Rules a create cannot check or this library cannot run. */
  readonly skipped: SkippedRule[] = [];
  /** Rules compiled and checked on every manifest. */
  count = 0;
  private readonly root: RuleNode | undefined;

  private constructor(
    private readonly schema: Node,
    schemaPointer: string,
  ) {
    this.root = this.build(withTypeAndObjectMeta(schema), [], schemaPointer);
  }

  /** Compiles every rule of a version's openAPIV3Schema; `schemaPointer` is where it sits in the CRD file. */
  static compile(schema: JsonObject, schemaPointer = ''): CelRules {
    return new CelRules(schema, schemaPointer);
  }

  /** Every failed rule of a manifest, each with a JSON Pointer into the manifest. */
  check(manifest: unknown): RuleProblem[] {
    const problems: RuleProblem[] = [];
    if (this.root === undefined || !isPlainObject(manifest)) return problems;
    // The API server fills in defaults before its rules run: a rule may read a member the caller left out.
    this.visit(this.root, withDefaults(manifest, this.schema), new CelValues(), [], problems);
    return problems;
  }

  private build(schema: Node, path: Array<string | number>, schemaPointer: string): RuleNode | undefined {
    const node: RuleNode = { schema, rules: [], properties: new Map(), items: undefined, additional: undefined };
    const rules = schema['x-kubernetes-validations'];
    if (Array.isArray(rules)) {
      rules.forEach((rule, index) => {
        if (!isPlainObject(rule)) return;
        const compiled = this.compileRule(rule, schema, schemaPointer + toPointer([...path, 'x-kubernetes-validations', index]));
        if (compiled !== undefined) {
          node.rules.push(compiled);
          this.count++;
        }
      });
    }
    if (isPlainObject(schema.properties)) {
      for (const [name, member] of Object.entries(schema.properties)) {
        if (!isPlainObject(member)) continue;
        const child = this.build(member, [...path, 'properties', name], schemaPointer);
        if (child !== undefined) node.properties.set(name, child);
      }
    }
    if (isPlainObject(schema.items)) node.items = this.build(schema.items, [...path, 'items'], schemaPointer);
    if (isPlainObject(schema.additionalProperties)) node.additional = this.build(schema.additionalProperties, [...path, 'additionalProperties'], schemaPointer);
    const empty = node.rules.length === 0 && node.properties.size === 0 && node.items === undefined && node.additional === undefined;
    return empty ? undefined : node;
  }

  private compileRule(entry: Record<string, unknown>, schema: Node, pointer: string): CompiledRule | undefined {
    const rule = typeof entry.rule === 'string' ? entry.rule.trim() : '';
    if (rule === '') return undefined; // structural.ts reports it
    const compiled = compileExpression(rule, schema);
    if ('skip' in compiled) {
      this.skipped.push({ pointer, rule, reason: compiled.skip });
      return undefined;
    }
    if ('error' in compiled) {
      this.problems.push({ pointer: pointer + '/rule', message: `rule ${JSON.stringify(rule)} does not compile: ${compiled.error}`, fix: 'write a CEL expression over self that is true for a valid value: https://kubernetes.io/docs/reference/using-api/cel/' });
      return undefined;
    }
    if (entry.optionalOldSelf !== undefined) {
      this.problems.push({ pointer: pointer + '/optionalOldSelf', message: 'optionalOldSelf may not be set if oldSelf is not used in rule', fix: 'remove optionalOldSelf' });
    }
    let messageProgram: Program | undefined;
    if (typeof entry.messageExpression === 'string' && entry.messageExpression.trim() !== '') {
      const message = compileExpression(entry.messageExpression.trim(), schema);
      if ('error' in message) {
        this.problems.push({ pointer: pointer + '/messageExpression', message: `messageExpression does not compile: ${message.error}`, fix: 'write a CEL expression over self that gives a string' });
      } else if ('program' in message) {
        messageProgram = message.program;
      }
      // A messageExpression this library cannot run falls back to message, as one that fails does in Kubernetes.
    }
    const fieldPath = typeof entry.fieldPath === 'string' ? parseFieldPath(entry.fieldPath) : undefined;
    return {
      rule,
      program: compiled.program,
      message: typeof entry.message === 'string' && entry.message.trim() !== '' ? entry.message.trim() : undefined,
      messageProgram,
      fieldPath: fieldPath !== undefined && fieldPathExists(schema, fieldPath) ? fieldPath : [],
      reason: typeof entry.reason === 'string' ? entry.reason : undefined,
    };
  }

  private visit(node: RuleNode, value: unknown, values: CelValues, path: string[], problems: RuleProblem[]): void {
    if (value === null || value === undefined) return;
    // A value larger than the schema allows is refused by the schema check; rules on it could cost without bound.
    if (node.rules.length > 0 && withinBounds(value, node.schema)) {
      const self = values.of(value, node.schema);
      for (const rule of node.rules) this.evaluate(rule, self, value, node.schema, values, path, problems);
    }
    if (isPlainObject(value)) {
      for (const [name, child] of node.properties) if (Object.hasOwn(value, name)) this.visit(child, value[name], values, [...path, name], problems);
      if (node.additional !== undefined) for (const [key, member] of Object.entries(value)) this.visit(node.additional, member, values, [...path, key], problems);
    } else if (Array.isArray(value) && node.items !== undefined) {
      value.forEach((item, index) => this.visit(node.items!, item, values, [...path, String(index)], problems));
    }
  }

  private evaluate(rule: CompiledRule, self: CelInput, value: unknown, schema: Node, values: CelValues, path: string[], problems: RuleProblem[]): void {
    let result: unknown;
    try {
      result = rule.program({ self });
    } catch (error) {
      result = error;
    }
    if (result === true) return;
    if (result !== false) {
      // An error: on a value the schema refuses, the schema check has said it already.
      const detail = isCelError(result) || result instanceof Error ? result.message : `gave ${String(result)}, not a bool`;
      if (values.isRefused(value, schema)) return;
      if ([...LIST_OVERLOADS].some((name) => detail.includes(`overload for '${name}'`))) return; // Kubernetes' list indexOf: not judged here
      problems.push({ pointer: toPointer(path), detail: `${detail} evaluating rule: ${rule.message ?? rule.rule}` });
      return;
    }
    const problem: RuleProblem = { pointer: toPointer([...path, ...rule.fieldPath]), detail: this.message(rule, self) };
    if (rule.reason !== undefined) problem.reason = rule.reason;
    problems.push(problem);
  }

  private message(rule: CompiledRule, self: CelInput): string {
    if (rule.messageProgram !== undefined) {
      try {
        const message = rule.messageProgram({ self });
        if (typeof message === 'string' && message.trim() !== '' && !/[\r\n]/.test(message)) return message.trim();
      } catch {
        // falls back to message, as in Kubernetes
      }
    }
    return rule.message ?? `failed rule: ${rule.rule}`;
  }
}

/** Parses, checks and plans one expression over `self` at a schema node. */
function compileExpression(text: string, schema: Node): { program: Program } | { skip: string } | { error: string } {
  if (/[.[]\?/.test(text.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''"))) {
    return { skip: 'uses optional syntax (.? or [?]), which @bufbuild/cel does not parse' };
  }
  let parsed: { expr: Expr };
  try {
    parsed = parse(text) as unknown as { expr: Expr };
  } catch (error) {
    return { error: (error as Error).message };
  }
  const found = analyse(parsed.expr, schema);
  if (found.oldSelf) return { skip: 'transition rule (uses oldSelf): a create has no old object to compare with' };
  if (found.library.size > 0) return { skip: `uses ${[...found.library].sort().join(', ')} from Kubernetes' CEL libraries, which @bufbuild/cel does not have` };
  if (found.errors.length > 0) return { error: found.errors.join('; ') };
  try {
    const program = plan(ENV, parsed as never) as unknown as (bindings: Record<string, CelInput>) => unknown;
    return { program: (bindings) => program(bindings) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The parts of a parsed CEL expression this module reads (cel.expr.Expr). */
interface Expr {
  exprKind:
    | { case: 'identExpr'; value: { name: string } }
    | { case: 'selectExpr'; value: { operand?: Expr; field: string; testOnly: boolean } }
    | { case: 'callExpr'; value: { target?: Expr; function: string; args: Expr[] } }
    | { case: 'listExpr'; value: { elements: Expr[] } }
    | { case: 'structExpr'; value: { entries: Array<{ keyKind: { case: string; value?: unknown }; value?: Expr }> } }
    | { case: 'comprehensionExpr'; value: { iterVar: string; iterVar2?: string; iterRange?: Expr; accuVar: string; accuInit?: Expr; loopCondition?: Expr; loopStep?: Expr; result?: Expr } }
    | { case: 'constExpr' | undefined; value?: unknown };
}

/**
 * What the API server's type check would say, as far as it can be said without CEL types: unknown
 * functions and identifiers, and members the schema does not declare on paths from `self`.
 */
function analyse(root: Expr, schema: Node): { oldSelf: boolean; library: Set<string>; errors: string[] } {
  const found = { oldSelf: false, library: new Set<string>(), errors: [] as string[] };
  const knownFunction = (name: string) => ENV.funcs.find(name) !== undefined || OPERATORS.has(name);

  /** Walks `expr` with the variables in scope (name → schema, or null when untyped); returns its schema when known. */
  const walk = (expr: Expr | undefined, scope: Map<string, Node | null>): Node | undefined => {
    if (expr === undefined) return undefined;
    const kind = expr.exprKind;
    switch (kind.case) {
      case 'identExpr': {
        const name = kind.value.name;
        if (name === 'oldSelf') found.oldSelf = true;
        else if (scope.has(name)) return scope.get(name) ?? undefined;
        else if (!TYPE_NAMES.has(name)) found.errors.push(`undeclared reference to '${name}'`);
        return undefined;
      }
      case 'selectExpr': {
        const operand = kind.value.operand;
        const qualified = qualifiedName(expr);
        if (qualified !== undefined && !scope.has(qualified.split('.')[0]!) && qualified.split('.')[0] !== 'oldSelf') {
          found.errors.push(`undeclared reference to '${qualified}'`);
          return undefined;
        }
        return member(walk(operand, scope), kind.value.field);
      }
      case 'callExpr': {
        const { target, function: name, args } = kind.value;
        const namespace = target !== undefined ? qualifiedName(target) : undefined;
        const inNamespace = namespace !== undefined && !scope.has(namespace.split('.')[0]!) && namespace.split('.')[0] !== 'oldSelf';
        const fullName = inNamespace ? `${namespace}.${name}` : name;
        const targetSchema = inNamespace ? undefined : walk(target, scope);
        const argSchemas = args.map((arg) => walk(arg, scope));
        if (KUBERNETES_LIBRARY.has(fullName) && !knownFunction(fullName)) found.library.add(`${fullName}()`);
        else if (LIST_OVERLOADS.has(name) && targetSchema?.type === 'array') found.library.add(`${name}() on a list`);
        else if (!knownFunction(fullName)) found.errors.push(`undeclared reference to '${fullName}'`);
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
        if (iterVar2) inner.set(iterVar2, range?.type === 'array' ? element : isPlainObject(range?.additionalProperties) ? (range!.additionalProperties as Node) : null);
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
      for (const [name, schema] of Object.entries(container.properties)) if (celName(name) === field && isPlainObject(schema)) return schema;
      found.errors.push(`undefined field '${field}'`);
      return undefined;
    }
    if (isPlainObject(container.additionalProperties)) return container.additionalProperties;
    return undefined;
  };

  walk(root, new Map([['self', schema]]));
  return found;
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
