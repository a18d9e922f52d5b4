/**
 * Render plans (compile once, run many): a collection's sections are parsed when its bundle loads;
 * the merged plan of each distinct set of included sections is built on first use and kept. A
 * render only walks a plan.
 */
import type { JsonObject } from '../util/json.js';
import { toPointer } from '../util/json.js';
import { parseBody, placeholderSites, type TemplateNode } from '../template/body.js';
import { mergeTemplates, type MergeConflict } from '../template/merge.js';
import type { Expression } from '../template/placeholder.js';
import { RenderError, type Problem } from './render-error.js';
import { lookup, resolveVariable, type ResolvedVariable } from './resolve.js';

export const MASTER_FACET = 'master';
/** Root members that lead every manifest, in this order (CONTRACT §6). */
const LEADING_MEMBERS = ['apiVersion', 'kind', 'metadata'];
/** Distinct facet selections whose merged plans are kept per collection. */
const MERGED_PLAN_CACHE_SIZE = 256;

export interface PlanSection {
  name: string;
  facets: string[];
  content: JsonObject;
  /** JSON Pointers (into the manifest) of the placeholders that must have a value. */
  required: string[];
}

export interface PlanSource {
  collection: string;
  variable: string;
  sections: PlanSection[];
}

export interface RenderRequest {
  facets?: readonly string[] | undefined;
  values: unknown;
  globalvars?: unknown;
  /** Every placeholder of every included section is required. */
  strict?: boolean | undefined;
}

interface Reference {
  path: string[];
  /** Path as written, for messages. */
  text: string;
}

type PlanNode =
  | { t: 'const'; value: unknown }
  | { t: 'object'; keys: string[]; nodes: PlanNode[]; root: boolean }
  | { t: 'array'; nodes: PlanNode[] }
  | { t: 'value'; alternatives: Reference[]; required: boolean; at: string }
  | { t: 'text'; parts: Array<string | Reference[]>; required: boolean; at: string };

interface RenderState {
  root: Record<string, unknown>;
  id: string;
  strict: boolean;
  problems: Problem[];
}

/** Sentinel for "no value": a member to remove. */
const MISSING = undefined;

export class CollectionRenderPlan {
  readonly collection: string;
  readonly variable: string;
  /** Every facet some section carries, sorted. */
  readonly facets: readonly string[];
  readonly sections: readonly PlanSection[];
  private readonly templates: TemplateNode[];
  private readonly facetSet: ReadonlySet<string>;
  private readonly merged = new Map<string, PlanNode>();

  constructor(source: PlanSource) {
    this.collection = source.collection;
    this.variable = source.variable;
    // Master sections first, then the others, each group in file order (CONTRACT §4).
    this.sections = [
      ...source.sections.filter((section) => section.facets.includes(MASTER_FACET)),
      ...source.sections.filter((section) => !section.facets.includes(MASTER_FACET)),
    ];
    this.templates = this.sections.map((section) => parseBody(section.content));
    this.facetSet = new Set(this.sections.flatMap((section) => section.facets));
    this.facets = [...this.facetSet].sort();
  }

  /** Indices of the sections a facet list includes; unknown facets are a 422 naming the known ones. */
  select(facets: readonly string[] = []): number[] {
    const problems: Problem[] = [];
    facets.forEach((facet, index) => {
      if (!this.facetSet.has(facet)) {
        problems.push({
          pointer: `/facets/${index}`,
          detail: `"${facet}" is not a facet of ${this.collection}; its facets are ${this.facets.join(', ')}`,
        });
      }
    });
    if (problems.length > 0) throw new RenderError('Unknown facet', problems);
    const requested = new Set(facets);
    const included: number[] = [];
    this.sections.forEach((section, index) => {
      if (section.facets.includes(MASTER_FACET) || section.facets.some((facet) => requested.has(facet))) included.push(index);
    });
    return included;
  }

  render(request: RenderRequest): JsonObject {
    const included = this.select(request.facets);
    const resolved = resolveVariable(this.variable, request.values, request.globalvars);
    if ('pointer' in resolved) throw new RenderError('Cannot resolve template variable', [resolved]);
    return this.renderSelected(included, resolved, request.strict === true);
  }

  /** Renders sections already selected with an input object already resolved. */
  renderSelected(included: number[], resolved: ResolvedVariable, strict: boolean): JsonObject {
    const state: RenderState = { root: resolved.value as Record<string, unknown>, id: resolved.id, strict, problems: [] };
    const manifest = evaluate(this.planFor(included), state) as JsonObject;
    if (state.problems.length > 0) throw new RenderError('Invalid input values', state.problems);
    return manifest;
  }

  /**
   * The sections a request really renders: included, and with a value for at least one of their
   * placeholders (or with none to fill). Used to check that examples cover every section.
   */
  renderedSections(request: RenderRequest): number[] {
    const resolved = resolveVariable(this.variable, request.values, request.globalvars);
    if ('pointer' in resolved) return [];
    return this.select(request.facets).filter((index) => {
      const sites = placeholderSites(this.templates[index]!);
      return sites.length === 0 || sites.some((site) => site.expressions.some((expression) => expression.references.some((reference) => lookup(resolved.value, reference.path) !== undefined)));
    });
  }

  private planFor(included: number[]): PlanNode {
    const key = included.join(',');
    let plan = this.merged.get(key);
    if (plan === undefined) {
      plan = this.compile(included);
      if (this.merged.size >= MERGED_PLAN_CACHE_SIZE) this.merged.delete(this.merged.keys().next().value!);
      this.merged.set(key, plan);
    }
    return plan;
  }

  private compile(included: number[]): PlanNode {
    const conflicts: MergeConflict[] = [];
    let tree: Extract<TemplateNode, { kind: 'object' }> = { kind: 'object', members: [] };
    const required = new Set<string>();
    for (const index of included) {
      tree = mergeTemplates(tree, this.templates[index] as typeof tree, conflicts);
      for (const pointer of this.sections[index]!.required) required.add(pointer);
    }
    if (conflicts.length > 0) {
      // Lint refuses such bundles; reaching this means a bundle was built without it.
      throw new Error(`${this.collection}: sections write the same member ${conflicts.map((c) => toPointer(c.at)).join(', ')}`);
    }
    const leading = LEADING_MEMBERS.flatMap((name) => tree.members.filter(([member]) => member === name));
    const rest = tree.members.filter(([member]) => !LEADING_MEMBERS.includes(member));
    return compileNode({ kind: 'object', members: [...leading, ...rest] }, [], required, true);
  }
}

function compileNode(node: TemplateNode, at: string[], required: ReadonlySet<string>, root = false): PlanNode {
  switch (node.kind) {
    case 'scalar':
      return { t: 'const', value: node.value };
    case 'object':
      return {
        t: 'object',
        keys: node.members.map(([name]) => name),
        nodes: node.members.map(([name, member]) => compileNode(member, [...at, name], required)),
        root,
      };
    case 'array':
      return { t: 'array', nodes: node.items.map((item, index) => compileNode(item, [...at, String(index)], required)) };
    case 'placeholder': {
      const pointer = toPointer(at);
      const isRequired = required.has(pointer);
      if (node.template.kind === 'whole') {
        return { t: 'value', alternatives: references(node.template.expression), required: isRequired, at: pointer };
      }
      return {
        t: 'text',
        parts: node.template.parts.map((part) => (typeof part === 'string' ? part : references(part))),
        required: isRequired,
        at: pointer,
      };
    }
  }
}

function references(expression: Expression): Reference[] {
  return expression.references.map((reference) => ({ path: reference.path, text: reference.path.join('.') }));
}

function firstDefined(alternatives: Reference[], root: unknown): unknown {
  for (const alternative of alternatives) {
    const value = lookup(root, alternative.path);
    if (value !== undefined) return value;
  }
  return MISSING;
}

function reportMissing(alternatives: Reference[], at: string, state: RenderState): void {
  const [first, ...others] = alternatives;
  const either = others.length > 0 ? ` (or ${others.map((other) => other.text).join(' or ')})` : '';
  state.problems.push({
    pointer: toPointer(['values', state.id, ...first!.path]),
    detail: `is required${either}: it fills ${at || '/'} of the manifest`,
  });
}

function evaluate(node: PlanNode, state: RenderState): unknown {
  switch (node.t) {
    case 'const':
      return node.value;
    case 'object': {
      const out: Record<string, unknown> = {};
      let count = 0;
      for (let index = 0; index < node.keys.length; index++) {
        const value = evaluate(node.nodes[index]!, state);
        if (value !== MISSING) {
          out[node.keys[index]!] = value;
          count++;
        }
      }
      // An object left empty by removals goes too, except the manifest itself.
      return count > 0 || node.root || node.keys.length === 0 ? out : MISSING;
    }
    case 'array': {
      const out: unknown[] = [];
      for (const item of node.nodes) {
        const value = evaluate(item, state);
        if (value !== MISSING) out.push(value);
      }
      return out.length > 0 || node.nodes.length === 0 ? out : MISSING;
    }
    case 'value': {
      const value = firstDefined(node.alternatives, state.root);
      if (value === MISSING && (node.required || state.strict)) reportMissing(node.alternatives, node.at, state);
      return value;
    }
    case 'text': {
      let text = '';
      let missing = false;
      for (const part of node.parts) {
        if (typeof part === 'string') {
          text += part;
          continue;
        }
        const value = firstDefined(part, state.root);
        if (value === MISSING) {
          missing = true;
          if (node.required || state.strict) reportMissing(part, node.at, state);
        } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
          text += String(value);
        } else {
          state.problems.push({
            pointer: toPointer(['values', state.id, ...definedPath(part, state.root)]),
            detail: `must be a string, number or boolean: it is part of the text of ${node.at} in the manifest`,
          });
          missing = true;
        }
      }
      return missing ? MISSING : text;
    }
  }
}

function definedPath(alternatives: Reference[], root: unknown): string[] {
  return (alternatives.find((alternative) => lookup(root, alternative.path) !== undefined) ?? alternatives[0]!).path;
}
