/**
 * The x-kubernetes-validations rules of a CRD version, compiled once with @bufbuild/cel and run as
 * the API server runs them. On a create (`check`): each rule with `self` bound to the value at its
 * schema node (every element under items, every value under a map), its `message` (or
 * messageExpression) as the problem's detail. Transition rules (those reading `oldSelf`) have
 * nothing to compare on a create: they run on an update only (`checkTransition`), with `oldSelf` the
 * value at the same place in the old object, where old and new can be correlated and both exist.
 * Rules calling Kubernetes' own CEL libraries (quantity, url, ip …), and transition rules whose
 * oldSelf is a CEL optional (optionalOldSelf), cannot run here: they are skipped and listed, never
 * guessed. A rule that does not compile, or that the API server would refuse, is a CRD problem.
 */
import { celEnv, type CelInput, isCelError, parse, plan } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import type { Problem } from '../request/problems.js';
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
  /** Whether it is a transition rule (reads oldSelf): one an update would run, never a create. */
  transition: boolean;
  /** Where the rule's node is in a manifest, `*` for any list element or map value, e.g. `/spec/storage`. */
  at: string;
}

/** A failed rule: a problem of the manifest, with the rule's reason when it gives one. */
export interface RuleProblem extends Problem {
  reason?: string;
}

/** A transition rule compiled, for a report's legend. */
export interface TransitionRule {
  /**
   * Where its problems point in a manifest: the rule's schema node (and its fieldPath) as a JSON
   * Pointer, `*` standing for any list element or map value, e.g. `/spec/storage/bucket`.
   */
  pointer: string;
  rule: string;
  message?: string;
}

interface CompiledRule {
  rule: string;
  program: Program;
  message: string | undefined;
  messageProgram: Program | undefined;
  fieldPath: string[];
  reason: string | undefined;
}

/** `oldSelf` is bound for transition rules only; a messageExpression reading it on a create falls back to message. */
type Bindings = { self: CelInput; oldSelf?: CelInput };
type Program = (bindings: Bindings) => unknown;

/** A schema node on the way to rules: its own rules, and the members below it that have some. */
interface RuleNode {
  schema: Node;
  /** Rules over `self` alone: run on every manifest. */
  rules: CompiledRule[];
  /** Rules reading `oldSelf`: run on an update only. */
  transitions: CompiledRule[];
  properties: Map<string, RuleNode>;
  items: RuleNode | undefined;
  additional: RuleNode | undefined;
}

/** Where a rule is compiled: its schema node, in the CRD file and in a manifest. */
interface Place {
  /** JSON Pointer of the node in the CRD file. */
  schemaPointer: string;
  /** The node's path in a manifest, `*` for any list element or map value. */
  manifestPath: string[];
  /** The manifest path of the outermost list above whose elements old and new cannot be correlated, if any. */
  uncorrelatable: string[] | undefined;
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
  /** Rules that do not compile, or that the API server refuses, as it would refuse the CRD for them. */
  readonly problems: CrdProblem[] = [];
  /** Rules this library cannot run: never checked here, on a create or an update. */
  readonly skipped: SkippedRule[] = [];
  /** Rules compiled and checked on every manifest (transition rules not counted: see transitionRules). */
  count = 0;
  /** Transition rules compiled and checked on an update (`checkTransition`), in schema order. */
  readonly transitionRules: TransitionRule[] = [];
  private readonly root: RuleNode | undefined;

  private constructor(
    private readonly schema: Node,
    schemaPointer: string,
  ) {
    this.root = this.build(withTypeAndObjectMeta(schema), [], { schemaPointer, manifestPath: [], uncorrelatable: undefined });
  }

  /** Compiles every rule of a version's openAPIV3Schema; `schemaPointer` is where it sits in the CRD file. */
  static compile(schema: JsonObject, schemaPointer = ''): CelRules {
    return new CelRules(schema, schemaPointer);
  }

  /** Every failed rule of a manifest, each with a JSON Pointer into the manifest; transition rules are not run. */
  check(manifest: unknown): RuleProblem[] {
    const problems: RuleProblem[] = [];
    if (this.root === undefined || !isPlainObject(manifest)) return problems;
    // The API server fills in defaults before its rules run: a rule may read a member the caller left out.
    this.visit(this.root, withDefaults(manifest, this.schema), new CelValues(), [], problems);
    return problems;
  }

  /**
   * Every transition rule that `after` fails as an update of `before`, as the API server runs them on
   * an update: both defaulted; a rule runs where its node has a non-null value in both, correlated
   * by member name and map key, and by the keys of `x-kubernetes-list-type: map` lists (never by
   * position); each problem with a JSON Pointer into `after`. Rules over `self` alone are not run.
   */
  checkTransition(before: unknown, after: unknown): RuleProblem[] {
    const problems: RuleProblem[] = [];
    if (this.root === undefined || this.transitionRules.length === 0 || !isPlainObject(before) || !isPlainObject(after)) return problems;
    this.visitTransition(this.root, withDefaults(after, this.schema), withDefaults(before, this.schema), new CelValues(), [], problems);
    return problems;
  }

  private build(schema: Node, path: Array<string | number>, place: Place): RuleNode | undefined {
    const node: RuleNode = { schema, rules: [], transitions: [], properties: new Map(), items: undefined, additional: undefined };
    const rules = schema['x-kubernetes-validations'];
    if (Array.isArray(rules)) {
      rules.forEach((rule, index) => {
        if (!isPlainObject(rule)) return;
        const pointer = place.schemaPointer + toPointer([...path, 'x-kubernetes-validations', index]);
        const compiled = this.compileRule(rule, schema, pointer, place);
        if (compiled === undefined) return;
        if ('transition' in compiled) {
          node.transitions.push(compiled.transition);
          const { rule: text, message, fieldPath } = compiled.transition;
          this.transitionRules.push({ pointer: toPointer([...place.manifestPath, ...fieldPath]), rule: text, ...(message !== undefined ? { message } : {}) });
        } else {
          node.rules.push(compiled.create);
          this.count++;
        }
      });
    }
    if (isPlainObject(schema.properties)) {
      for (const [name, member] of Object.entries(schema.properties)) {
        if (!isPlainObject(member)) continue;
        const child = this.build(member, [...path, 'properties', name], { ...place, manifestPath: [...place.manifestPath, name] });
        if (child !== undefined) node.properties.set(name, child);
      }
    }
    if (isPlainObject(schema.items)) {
      // Only the elements of a keyed list can be told apart between old and new (by their keys):
      // the API server refuses a CRD with a transition rule below a list of another type.
      const uncorrelatable = place.uncorrelatable ?? (mapListKeys(schema) === undefined ? place.manifestPath : undefined);
      node.items = this.build(schema.items, [...path, 'items'], { ...place, manifestPath: [...place.manifestPath, '*'], uncorrelatable });
    }
    if (isPlainObject(schema.additionalProperties)) {
      node.additional = this.build(schema.additionalProperties, [...path, 'additionalProperties'], { ...place, manifestPath: [...place.manifestPath, '*'] });
    }
    const empty = node.rules.length === 0 && node.transitions.length === 0 && node.properties.size === 0 && node.items === undefined && node.additional === undefined;
    return empty ? undefined : node;
  }

  private compileRule(entry: Record<string, unknown>, schema: Node, pointer: string, place: Place): { create: CompiledRule } | { transition: CompiledRule } | undefined {
    const rule = typeof entry.rule === 'string' ? entry.rule.trim() : '';
    if (rule === '') return undefined; // structural.ts reports it
    const skip = (reason: string, transition: boolean) => {
      this.skipped.push({ pointer, rule, reason, transition, at: toPointer(place.manifestPath) });
      return undefined;
    };
    const analysed = analyseExpression(rule, schema);
    if ('skip' in analysed) return skip(analysed.skip, /\boldSelf\b/.test(withoutStrings(rule)));
    if ('error' in analysed) return this.doesNotCompile(pointer, rule, analysed.error);
    const { found } = analysed;
    const optionalOldSelf = entry.optionalOldSelf !== undefined && entry.optionalOldSelf !== null;
    if (found.oldSelf && place.uncorrelatable !== undefined) {
      const list = place.uncorrelatable;
      const listSchema = listSchemaAt(this.schema, list);
      const listType = typeof listSchema?.['x-kubernetes-list-type'] === 'string' ? listSchema['x-kubernetes-list-type'] : 'atomic';
      this.problems.push({
        pointer: pointer + '/rule',
        message: `rule ${JSON.stringify(rule)} uses oldSelf below the list ${toPointer(list) || '/'}, whose elements cannot be told apart between the old and the new object (its x-kubernetes-list-type is ${listType}, not map)`,
        fix: 'make that list x-kubernetes-list-type: map with x-kubernetes-list-map-keys, or write the rule on the list itself',
      });
      return undefined;
    }
    if (!found.oldSelf && optionalOldSelf) {
      this.problems.push({ pointer: pointer + '/optionalOldSelf', message: 'optionalOldSelf may not be set if oldSelf is not used in rule', fix: 'remove optionalOldSelf' });
    }
    if (found.oldSelf && entry.optionalOldSelf === true) {
      return skip('uses optionalOldSelf: oldSelf is then a CEL optional, which @bufbuild/cel does not have (with it the API server runs the rule on a create too)', true);
    }
    if (found.library.size > 0) return skip(`uses ${[...found.library].sort().join(', ')} from Kubernetes' CEL libraries, which @bufbuild/cel does not have`, found.oldSelf);
    if (found.errors.length > 0) return this.doesNotCompile(pointer, rule, found.errors.join('; '));
    const program = planExpression(analysed.parsed);
    if ('error' in program) return this.doesNotCompile(pointer, rule, program.error);

    let messageProgram: Program | undefined;
    if (typeof entry.messageExpression === 'string' && entry.messageExpression.trim() !== '') {
      const message = compileExpression(entry.messageExpression.trim(), schema);
      if ('error' in message) {
        this.problems.push({ pointer: pointer + '/messageExpression', message: `messageExpression does not compile: ${message.error}`, fix: 'write a CEL expression over self (and oldSelf in a transition rule) that gives a string' });
      } else if ('program' in message) {
        messageProgram = message.program;
      }
      // A messageExpression this library cannot run falls back to message, as one that fails does in Kubernetes.
    }
    const fieldPath = typeof entry.fieldPath === 'string' ? parseFieldPath(entry.fieldPath) : undefined;
    const compiled: CompiledRule = {
      rule,
      program: program.program,
      message: typeof entry.message === 'string' && entry.message.trim() !== '' ? entry.message.trim() : undefined,
      messageProgram,
      fieldPath: fieldPath !== undefined && fieldPathExists(schema, fieldPath) ? fieldPath : [],
      reason: typeof entry.reason === 'string' ? entry.reason : undefined,
    };
    return found.oldSelf ? { transition: compiled } : { create: compiled };
  }

  private doesNotCompile(pointer: string, rule: string, error: string): undefined {
    this.problems.push({ pointer: pointer + '/rule', message: `rule ${JSON.stringify(rule)} does not compile: ${error}`, fix: 'write a CEL expression over self that is true for a valid value: https://kubernetes.io/docs/reference/using-api/cel/' });
    return undefined;
  }

  private visit(node: RuleNode, value: unknown, values: CelValues, path: string[], problems: RuleProblem[]): void {
    if (value === null || value === undefined) return;
    // A value larger than the schema allows is refused by the schema check; rules on it could cost without bound.
    if (node.rules.length > 0 && withinBounds(value, node.schema)) {
      const bindings = { self: values.of(value, node.schema) };
      const refused = () => values.isRefused(value, node.schema);
      for (const rule of node.rules) this.evaluate(rule, bindings, refused, path, problems);
    }
    if (isPlainObject(value)) {
      for (const [name, child] of node.properties) if (Object.hasOwn(value, name)) this.visit(child, value[name], values, [...path, name], problems);
      if (node.additional !== undefined) for (const [key, member] of Object.entries(value)) this.visit(node.additional, member, values, [...path, key], problems);
    } else if (Array.isArray(value) && node.items !== undefined) {
      value.forEach((item, index) => this.visit(node.items!, item, values, [...path, String(index)], problems));
    }
  }

  /** The transition rules at `node` and below, `value` and `old` the new and the old value there; `path` is in the new object. */
  private visitTransition(node: RuleNode, value: unknown, old: unknown, values: CelValues, path: string[], problems: RuleProblem[]): void {
    // Transition rules run only where the value exists in both objects (optionalOldSelf rules, which
    // would run without an old value, are skipped); nothing below an absent value correlates either.
    if (value === null || value === undefined || old === null || old === undefined) return;
    if (node.transitions.length > 0 && withinBounds(value, node.schema) && withinBounds(old, node.schema)) {
      const bindings = { self: values.of(value, node.schema), oldSelf: values.of(old, node.schema) };
      const refused = () => values.isRefused(value, node.schema) || values.isRefused(old, node.schema);
      for (const rule of node.transitions) this.evaluate(rule, bindings, refused, path, problems);
    }
    if (isPlainObject(value)) {
      if (!isPlainObject(old)) return;
      const member = (key: string) => (Object.hasOwn(old, key) ? old[key] : undefined);
      for (const [name, child] of node.properties) if (Object.hasOwn(value, name)) this.visitTransition(child, value[name], member(name), values, [...path, name], problems);
      if (node.additional !== undefined) for (const [key, item] of Object.entries(value)) this.visitTransition(node.additional, item, member(key), values, [...path, key], problems);
    } else if (Array.isArray(value) && node.items !== undefined) {
      // Elements correlate by their keys in a keyed list only; in any other list no transition rule runs below.
      const keys = mapListKeys(node.schema);
      if (keys === undefined || !Array.isArray(old)) return;
      const oldByKey = new Map<string, unknown>();
      for (const item of old) {
        const key = listMapKey(item, keys);
        if (key !== undefined && !oldByKey.has(key)) oldByKey.set(key, item);
      }
      value.forEach((item, index) => {
        const key = listMapKey(item, keys);
        if (key !== undefined) this.visitTransition(node.items!, item, oldByKey.get(key), values, [...path, String(index)], problems);
      });
    }
  }

  private evaluate(rule: CompiledRule, bindings: Bindings, refused: () => boolean, path: string[], problems: RuleProblem[]): void {
    let result: unknown;
    try {
      result = rule.program(bindings);
    } catch (error) {
      result = error;
    }
    if (result === true) return;
    if (result !== false) {
      // An error: on a value the schema refuses, the schema check has said it already.
      const detail = isCelError(result) || result instanceof Error ? result.message : `gave ${String(result)}, not a bool`;
      if (refused()) return;
      if ([...LIST_OVERLOADS].some((name) => detail.includes(`overload for '${name}'`))) return; // Kubernetes' list indexOf: not judged here
      problems.push({ pointer: toPointer(path), detail: `${detail} evaluating rule: ${rule.message ?? rule.rule}` });
      return;
    }
    const problem: RuleProblem = { pointer: toPointer([...path, ...rule.fieldPath]), detail: this.message(rule, bindings) };
    if (rule.reason !== undefined) problem.reason = rule.reason;
    problems.push(problem);
  }

  private message(rule: CompiledRule, bindings: Bindings): string {
    if (rule.messageProgram !== undefined) {
      try {
        const message = rule.messageProgram(bindings);
        if (typeof message === 'string' && message.trim() !== '' && !/[\r\n]/.test(message)) return message.trim();
      } catch {
        // falls back to message, as in Kubernetes
      }
    }
    return rule.message ?? `failed rule: ${rule.rule}`;
  }
}

/** The `x-kubernetes-list-map-keys` of a keyed list (`x-kubernetes-list-type: map`), else undefined. */
function mapListKeys(schema: Node): string[] | undefined {
  const keys = schema['x-kubernetes-list-map-keys'];
  if (schema['x-kubernetes-list-type'] !== 'map' || !Array.isArray(keys) || keys.length === 0) return undefined;
  return keys.every((key) => typeof key === 'string') ? (keys as string[]) : undefined;
}

/** An element's key in a keyed list, as the API server correlates them: undefined unless every key member is there and a scalar. */
function listMapKey(item: unknown, keys: readonly string[]): string | undefined {
  if (!isPlainObject(item)) return undefined;
  const values: unknown[] = [];
  for (const key of keys) {
    const value = Object.hasOwn(item, key) ? item[key] : undefined;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
    values.push(value);
  }
  return JSON.stringify(values);
}

/** The schema of the list at a manifest path (`*` for any element or map value), for a message. */
function listSchemaAt(schema: Node, manifestPath: readonly string[]): Node | undefined {
  let node: unknown = schema;
  for (const segment of manifestPath) {
    if (!isPlainObject(node)) return undefined;
    if (segment === '*') node = isPlainObject(node.items) ? node.items : node.additionalProperties;
    else node = isPlainObject(node.properties) ? node.properties[segment] : undefined;
  }
  return isPlainObject(node) ? node : undefined;
}

/** An expression with its string literals emptied, to look for syntax in it. */
const withoutStrings = (text: string) => text.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''");

/** Parses one expression and says what it reads, as far as can be told without CEL types. */
function analyseExpression(text: string, schema: Node): { parsed: { expr: Expr }; found: Analysis } | { skip: string } | { error: string } {
  if (/[.[]\?/.test(withoutStrings(text))) {
    return { skip: 'uses optional syntax (.? or [?]), which @bufbuild/cel does not parse' };
  }
  let parsed: { expr: Expr };
  try {
    parsed = parse(text) as unknown as { expr: Expr };
  } catch (error) {
    return { error: (error as Error).message };
  }
  return { parsed, found: analyse(parsed.expr, schema) };
}

function planExpression(parsed: { expr: Expr }): { program: Program } | { error: string } {
  try {
    const program = plan(ENV, parsed as never) as unknown as (bindings: Record<string, CelInput>) => unknown;
    return { program: (bindings) => program(bindings) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Parses, checks and plans one expression over `self` (and `oldSelf`, typed as self) at a schema node. */
function compileExpression(text: string, schema: Node): { program: Program } | { skip: string } | { error: string } {
  const analysed = analyseExpression(text, schema);
  if (!('parsed' in analysed)) return analysed;
  const { found } = analysed;
  if (found.library.size > 0) return { skip: `uses ${[...found.library].sort().join(', ')} from Kubernetes' CEL libraries, which @bufbuild/cel does not have` };
  if (found.errors.length > 0) return { error: found.errors.join('; ') };
  return planExpression(analysed.parsed);
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

interface Analysis {
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
function analyse(root: Expr, schema: Node): Analysis {
  const found: Analysis = { oldSelf: false, library: new Set<string>(), errors: [] };
  const knownFunction = (name: string) => ENV.funcs.find(name) !== undefined || OPERATORS.has(name);

  /** Walks `expr` with the variables in scope (name → schema, or null when untyped); returns its schema when known. */
  const walk = (expr: Expr | undefined, scope: Map<string, Node | null>): Node | undefined => {
    if (expr === undefined) return undefined;
    const kind = expr.exprKind;
    switch (kind.case) {
      case 'identExpr': {
        const name = kind.value.name;
        if (name === 'oldSelf') found.oldSelf = true;
        if (scope.has(name)) return scope.get(name) ?? undefined;
        else if (!TYPE_NAMES.has(name)) found.errors.push(`undeclared reference to '${name}'`);
        return undefined;
      }
      case 'selectExpr': {
        const operand = kind.value.operand;
        const qualified = qualifiedName(expr);
        if (qualified !== undefined && !scope.has(qualified.split('.')[0]!)) {
          found.errors.push(`undeclared reference to '${qualified}'`);
          return undefined;
        }
        return member(walk(operand, scope), kind.value.field);
      }
      case 'callExpr': {
        const { target, function: name, args } = kind.value;
        const namespace = target !== undefined ? qualifiedName(target) : undefined;
        const inNamespace = namespace !== undefined && !scope.has(namespace.split('.')[0]!);
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

  walk(root, new Map([
    ['self', schema],
    ['oldSelf', schema],
  ]));
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
