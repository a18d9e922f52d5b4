/**
 * Render plans (compile once, run many): a collection's sections are parsed when its bundle loads;
 * the merged plan of each distinct set of included sections is built on first use and kept. A
 * render only walks a plan.
 */
import type { JsonObject } from '../util/json.js';
import { isPathPrefix, ownMember, toPointer } from '../util/json.js';
import { parseBody, placeholderSites, type TemplateNode } from '../template/body.js';
import { mergeTemplates, type MergeConflict } from '../template/merge.js';
import type { Expression } from '../template/placeholder.js';
import { closestName, didYouMean } from '../util/did-you-mean.js';
import { LISTED_PROBLEMS, RenderError, type Problem } from '../request/problems.js';
import { generateRenderFunction, type PlanNode, type Reference, type RenderFunction, type RenderState } from './plan-codegen.js';
import { lookup, resolveVariable, type ResolvedVariable } from '../request/resolve.js';
import { MASTER_FACET, mastersFirst } from '../collection/facet.js';

/** Root members that lead every manifest, in this order (CONTRACT §6). */
const LEADING_MEMBERS = ['apiVersion', 'kind', 'metadata'];
/** Distinct facet lists, and section sets, whose compiled plans are kept per collection. */
const CACHE_SIZE = 256;

export interface Selection {
  /** Indices into the plan's sections. */
  included: number[];
  render: RenderFunction;
  /** Where each placeholder lands in the manifest, to trace a manifest member back to the request. */
  sites: PlanSite[];
}

/** A placeholder of a merged plan: where it lands and what it reads. */
export interface PlanSite {
  at: string[];
  /** The references it reads, in order; the first with a value is the one rendered. */
  references: string[][];
  /** A whole placeholder puts the value itself there, so members below it come from the value too. */
  whole: boolean;
}

interface CompiledSelection {
  render: RenderFunction;
  sites: PlanSite[];
}

interface SelectionTrie {
  selection?: Selection;
  next?: Map<string, SelectionTrie>;
}

function remember<T>(cache: Map<string, T>, key: string, value: T): void {
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
}

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
  facets?: readonly unknown[] | undefined;
  values: unknown;
  globalvars?: unknown;
}

export class CollectionRenderPlan {
  readonly collection: string;
  readonly variable: string;
  /** Every facet some section carries, sorted. */
  readonly facets: readonly string[];
  readonly sections: readonly PlanSection[];
  private readonly templates: TemplateNode[];
  private readonly facetSet: ReadonlySet<string>;
  /** Valid facet lists → selection (at most CACHE_SIZE lists); included sections → render function. */
  private readonly selectionTrie: SelectionTrie = {};
  private selectionCount = 0;
  private readonly functions = new Map<string, CompiledSelection>();

  constructor(source: PlanSource) {
    this.collection = source.collection;
    this.variable = source.variable;
    this.sections = mastersFirst(source.sections);
    this.templates = this.sections.map((section) => parseBody(section.content));
    this.facetSet = new Set(this.sections.flatMap((section) => section.facets));
    this.facets = [...this.facetSet].sort();
  }

  /**
   * The sections a facet list includes, with their compiled render function; unknown facets are a
   * 422 naming the known ones. Entries that are not strings are left to the request-shape check.
   * Valid lists are remembered, so a repeated list costs one lookup per facet.
   */
  select(facets: readonly unknown[] = []): Selection {
    // A trie over the facet list: one map lookup per facet, no key strings to build.
    let node: SelectionTrie | undefined = this.selectionTrie;
    for (let index = 0; index < facets.length && node !== undefined; index++) node = node.next?.get(facets[index] as string);
    if (node?.selection !== undefined) return node.selection;
    const problems: Problem[] = [];
    // Made once: a request may name a hundred thousand unknown facets.
    const known = `; its facets are ${this.facets.join(', ')}`;
    facets.forEach((facet, index) => {
      if (typeof facet === 'string' && !this.facetSet.has(facet)) {
        // Suggestions for as many as an answer lists: beyond them nobody reads one.
        const suggestion = problems.length < LISTED_PROBLEMS ? this.closestFacet(facet) : undefined;
        problems.push({ pointer: `/facets/${index}`, detail: `"${facet}" is not a facet of ${this.collection}${known}${didYouMean(suggestion)}` });
      }
    });
    if (problems.length > 0) throw new RenderError('Unknown facet', problems);
    const requested = new Set(facets.filter((facet): facet is string => typeof facet === 'string'));
    const included: number[] = [];
    this.sections.forEach((section, index) => {
      if (section.facets.includes(MASTER_FACET) || section.facets.some((facet) => requested.has(facet))) included.push(index);
    });
    const includedKey = included.join(',');
    let compiled = this.functions.get(includedKey);
    if (compiled === undefined) {
      const sites: PlanSite[] = [];
      compiled = { render: generateRenderFunction(this.compile(included, sites)), sites };
      remember(this.functions, includedKey, compiled);
    }
    const selection = { included, ...compiled };
    // Only lists of distinct facets are remembered, so the trie stays as small as the facets allow.
    if (this.selectionCount < CACHE_SIZE && requested.size === facets.length && facets.length <= this.facets.length) {
      let trie = this.selectionTrie;
      for (const facet of facets as string[]) {
        trie.next ??= new Map();
        let child = trie.next.get(facet);
        if (child === undefined) trie.next.set(facet, (child = {}));
        trie = child;
      }
      trie.selection = selection;
      this.selectionCount++;
    }
    return selection;
  }

  /** The facet an unknown one most likely meant: `ports` for `addon:ports` too. */
  private closestFacet(facet: string): string | undefined {
    return closestName(facet, this.facets) ?? (facet.includes(':') ? undefined : closestName(`addon:${facet}`, this.facets));
  }

  render(request: RenderRequest): JsonObject {
    const selection = this.select(request.facets);
    const resolved = resolveVariable(this.variable, request.values, request.globalvars);
    if ('pointer' in resolved) throw new RenderError('Cannot resolve template variable', [resolved]);
    return this.renderSelected(selection, resolved);
  }

  /** Renders a selection with an input object already resolved. */
  renderSelected(selection: Selection, resolved: ResolvedVariable): JsonObject {
    const { manifest, problems } = this.renderAll(selection, resolved);
    if (problems.length > 0) throw new RenderError('Invalid input values', problems);
    return manifest;
  }

  /** What renders, and every problem on the way: a manifest with the failing members left out. */
  renderAll(selection: Selection, resolved: ResolvedVariable): { manifest: JsonObject; problems: Problem[] } {
    const state: RenderState = { id: resolved.id, problems: [] };
    const manifest = selection.render(resolved.value, state) as JsonObject;
    return { manifest, problems: state.problems };
  }

  /**
   * The request member a manifest member came from: `['values', id, ...reference, ...below]`, or
   * undefined when the template wrote it itself. A removed array element before it shifts the
   * manifest's indexes, so a member after one is traced to its placeholder's first position.
   */
  requestPathOf(selection: Selection, manifestPath: readonly string[], resolved: ResolvedVariable): string[] | undefined {
    let source: PlanSite | undefined;
    for (const site of selection.sites) {
      if (isPathPrefix(site.at, manifestPath) && (source === undefined || site.at.length > source.at.length)) source = site;
    }
    if (source === undefined) return undefined;
    const reference = source.references.find((path) => lookup(resolved.value, path) !== undefined) ?? source.references[0]!;
    return ['values', resolved.id, ...reference, ...(source.whole ? manifestPath.slice(source.at.length) : [])];
  }

  /**
   * The request member that holds every value rendered under `at`, or undefined when no placeholder
   * lands there: for a rule about a whole object (a CRD's CEL rule on spec, say) whose members came
   * from the values.
   */
  requestPathHolding(selection: Selection, at: readonly string[], resolved: ResolvedVariable): string[] | undefined {
    const sources = selection.sites.filter((site) => isPathPrefix(at, site.at)).map((site) => this.requestPathOf(selection, site.at, resolved)!);
    if (sources.length === 0) return undefined;
    return sources.reduce((common, path) => {
      let length = 0;
      while (length < common.length && common[length] === path[length]) length++;
      return common.slice(0, length);
    });
  }

  /** Facets (besides master) of the sections that write `at` or a member under it: what a request must select to have it. */
  facetsWriting(at: readonly string[]): string[] {
    const writes = (section: PlanSection) => {
      let node: unknown = section.content;
      for (const segment of at) {
        if (typeof node === 'string' && node.includes('{{')) return true; // a placeholder's value may hold the rest
        node = ownMember(node, segment);
        if (node === undefined) return false;
      }
      return true;
    };
    return [...new Set(this.sections.filter(writes).flatMap((section) => section.facets.filter((facet) => facet !== MASTER_FACET)))];
  }

  /**
   * The sections a request really renders: included, and with a value for at least one of their
   * placeholders (or with none to fill). Used to check that examples cover every section.
   */
  renderedSections(request: RenderRequest): number[] {
    const resolved = resolveVariable(this.variable, request.values, request.globalvars);
    if ('pointer' in resolved) return [];
    return this.select(request.facets).included.filter((index) => {
      const sites = placeholderSites(this.templates[index]!);
      return sites.length === 0 || sites.some((site) => site.expressions.some((expression) => expression.references.some((reference) => lookup(resolved.value, reference.path) !== undefined)));
    });
  }

  private compile(included: number[], sites: PlanSite[]): PlanNode {
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
    return compileNode({ kind: 'object', members: [...leading, ...rest] }, [], required, sites, true);
  }
}

function compileNode(node: TemplateNode, at: string[], required: ReadonlySet<string>, sites: PlanSite[], root = false): PlanNode {
  switch (node.kind) {
    case 'scalar':
      return { t: 'const', value: node.value };
    case 'object':
      if (node.members.some(([name]) => name === '__proto__')) throw new Error('a member named __proto__ cannot be rendered'); // lint refuses it
      return {
        t: 'object',
        keys: node.members.map(([name]) => name),
        nodes: node.members.map(([name, member]) => compileNode(member, [...at, name], required, sites)),
        root,
      };
    case 'array':
      return { t: 'array', nodes: node.items.map((item, index) => compileNode(item, [...at, String(index)], required, sites)) };
    case 'placeholder': {
      const pointer = toPointer(at);
      const isRequired = required.has(pointer);
      const expressions = node.template.kind === 'whole' ? [node.template.expression] : node.template.parts.filter((part): part is Expression => typeof part !== 'string');
      sites.push({ at, references: expressions.flatMap((expression) => expression.references.map((reference) => reference.path)), whole: node.template.kind === 'whole' });
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
