/**
 * A CRD version's x-kubernetes-validations rules compiled once, along its schema: a tree of the
 * schema nodes that have rules or lead to some, each rule a program with its message, fieldPath and
 * reason. Rules that cannot run here are listed as skipped; rules the API server would refuse (that
 * do not compile, or read oldSelf where it cannot be correlated) are problems of the CRD.
 */
import { isPlainObject, toPointer } from '../util/json.js';
import type { CrdProblem } from './crd-problem.js';
import { libraryReason } from './cel-environment.js';
import { analyseExpression, compileExpression, mentionsOldSelf, planExpression, type Program } from './cel-expression.js';
import { withTypeAndObjectMeta } from './cel-value.js';
import { fieldPathExists, parseFieldPath } from './field-path.js';
import { mapListKeys, uncorrelatableProblem } from './cel-correlation.js';
import type { SkippedRule, TransitionRule } from '../manifest/transition-rules.js';

type Node = Record<string, unknown>;

export interface CompiledRule {
  rule: string;
  program: Program;
  message: string | undefined;
  messageProgram: Program | undefined;
  /** The messageExpression as written, for the API server's words when its cost stops the check. */
  messageExpression?: string;
  fieldPath: string[];
  reason: string | undefined;
  /** The rule's schema node's `type` ('' when it has none): the value the API server's error shows. */
  schemaType: string;
}

/** A schema node on the way to rules: its own rules, and the members below it that have some. */
export interface RuleNode {
  schema: Node;
  /** Rules over `self` alone: run on every manifest. */
  rules: CompiledRule[];
  /** Rules reading `oldSelf`: run on an update only. */
  transitions: CompiledRule[];
  properties: Map<string, RuleNode>;
  items: RuleNode | undefined;
  additional: RuleNode | undefined;
}

/** A rule that runs on every manifest, or on an update only. */
type Compiled = { create: CompiledRule } | { transition: CompiledRule };

/** Where a rule is compiled: its schema node, in the CRD file and in a manifest. */
interface Place {
  /** JSON Pointer of the node in the CRD file. */
  schemaPointer: string;
  /** The node's path in a manifest, `*` for any list element or map value. */
  manifestPath: string[];
  /** The manifest path of the outermost list above whose elements old and new cannot be correlated, if any. */
  uncorrelatable: string[] | undefined;
}

export class RuleTree {
  /** Rules that do not compile, or that the API server refuses, as it would refuse the CRD for them. */
  readonly problems: CrdProblem[] = [];
  /** Rules this library cannot run: never checked here, on a create or an update. */
  readonly skipped: SkippedRule[] = [];
  /** Rules compiled and checked on every manifest (transition rules not counted: see transitionRules). */
  count = 0;
  /** Transition rules compiled and checked on an update, in schema order. */
  readonly transitionRules: TransitionRule[] = [];
  /** Undefined when no node of the schema has a rule. */
  readonly root: RuleNode | undefined;

  /** Compiles every rule of a version's openAPIV3Schema; `schemaPointer` is where it sits in the CRD file. */
  constructor(
    private readonly schema: Node,
    schemaPointer: string,
  ) {
    this.root = this.build(withTypeAndObjectMeta(schema), [], { schemaPointer, manifestPath: [], uncorrelatable: undefined });
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
          const at = toPointer([...place.manifestPath, ...fieldPath]);
          this.transitionRules.push({ pointer: at, rule: text, ...(message !== undefined ? { message } : {}) });
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
      const manifestPath = [...place.manifestPath, '*'];
      node.additional = this.build(schema.additionalProperties, [...path, 'additionalProperties'], { ...place, manifestPath });
    }
    const leaf = node.properties.size === 0 && node.items === undefined && node.additional === undefined;
    return leaf && node.rules.length === 0 && node.transitions.length === 0 ? undefined : node;
  }

  private compileRule(entry: Node, schema: Node, pointer: string, place: Place): Compiled | undefined {
    const rule = typeof entry.rule === 'string' ? entry.rule.trim() : '';
    if (rule === '') return undefined; // structural.ts reports it
    const skip = (reason: string, transition: boolean) => {
      this.skipped.push({ pointer, rule, reason, transition, at: toPointer(place.manifestPath) });
      return undefined;
    };
    const analysed = analyseExpression(rule, schema);
    if ('skip' in analysed) return skip(analysed.skip, mentionsOldSelf(rule));
    if ('error' in analysed) return this.doesNotCompile(pointer, rule, analysed.error);
    const { found } = analysed;
    const optionalOldSelf = entry.optionalOldSelf !== undefined && entry.optionalOldSelf !== null;
    if (found.oldSelf && place.uncorrelatable !== undefined) {
      this.problems.push(uncorrelatableProblem(this.schema, place.uncorrelatable, rule, pointer));
      return undefined;
    }
    if (!found.oldSelf && optionalOldSelf) {
      const message = 'optionalOldSelf may not be set if oldSelf is not used in rule';
      this.problems.push({ pointer: pointer + '/optionalOldSelf', message, fix: 'remove optionalOldSelf' });
    }
    if (found.oldSelf && entry.optionalOldSelf === true) {
      const reason = 'uses optionalOldSelf: oldSelf is then a CEL optional, which @bufbuild/cel does not have';
      return skip(`${reason} (with it the API server runs the rule on a create too)`, true);
    }
    if (found.library.size > 0) return skip(libraryReason(found.library), found.oldSelf);
    if (found.errors.length > 0) return this.doesNotCompile(pointer, rule, found.errors.join('; '));
    const program = planExpression(analysed.parsed);
    if ('error' in program) return this.doesNotCompile(pointer, rule, program.error);

    const fieldPath = typeof entry.fieldPath === 'string' ? parseFieldPath(entry.fieldPath) : undefined;
    const compiled: CompiledRule = {
      rule,
      program: program.program,
      message: typeof entry.message === 'string' && entry.message.trim() !== '' ? entry.message.trim() : undefined,
      messageProgram: this.compileMessage(entry, schema, pointer),
      ...(typeof entry.messageExpression === 'string' ? { messageExpression: entry.messageExpression } : {}),
      fieldPath: fieldPath !== undefined && fieldPathExists(schema, fieldPath) ? fieldPath : [],
      reason: typeof entry.reason === 'string' ? entry.reason : undefined,
      schemaType: typeof schema.type === 'string' ? schema.type : '',
    };
    return found.oldSelf ? { transition: compiled } : { create: compiled };
  }

  /** A rule's messageExpression; one this library cannot run falls back to message, as one that fails does in Kubernetes. */
  private compileMessage(entry: Node, schema: Node, pointer: string): Program | undefined {
    if (typeof entry.messageExpression !== 'string' || entry.messageExpression.trim() === '') return undefined;
    const message = compileExpression(entry.messageExpression.trim(), schema);
    if ('error' in message) {
      this.problems.push({
        pointer: pointer + '/messageExpression',
        message: `messageExpression does not compile: ${message.error}`,
        fix: 'write a CEL expression over self (and oldSelf in a transition rule) that gives a string',
      });
    }
    return 'program' in message ? message.program : undefined;
  }

  private doesNotCompile(pointer: string, rule: string, error: string): undefined {
    const message = `rule ${JSON.stringify(rule)} does not compile: ${error}`;
    const fix = 'write a CEL expression over self that is true for a valid value: https://kubernetes.io/docs/reference/using-api/cel/';
    this.problems.push({ pointer: pointer + '/rule', message, fix });
    return undefined;
  }
}
