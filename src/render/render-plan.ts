/**
 * Render plans (compile once, run many): a plan takes a collection's sections parsed and in render
 * order from the collection model (src/collection/), or, from a bundle, has them parsed there; the
 * merged plan of each distinct set of included sections is built on first use and kept. A render
 * only walks a plan.
 */
import type { JsonObject } from '../util/json.js';
import { isPathPrefix, ownMember } from '../util/json.js';
import { closestName, didYouMean } from '../util/did-you-mean.js';
import { LISTED_PROBLEMS, RenderError, type Problem } from '../request/problems.js';
import { isMasterFacet } from '../collection/facet.js';
import { orderedSections, type ParsedSection, type SectionParts } from '../collection/section.js';
import { generateRenderFunction, type RenderFunction, type RenderState } from './plan-codegen.js';
import { mergedPlan, type PlanSite } from './plan-tree.js';
import { lookup, resolveVariable, type ResolvedVariable } from '../request/resolve.js';
import { FacetListCache, remember } from './selection-cache.js';

export interface Selection {
  /** Indices into the plan's sections. */
  included: number[];
  render: RenderFunction;
  /** Where each placeholder lands in the manifest, to trace a manifest member back to the request. */
  sites: PlanSite[];
}

interface CompiledSelection {
  render: RenderFunction;
  sites: PlanSite[];
}

/** A section as a bundle holds it: the plan parses it (src/collection/section.ts). */
export type PlanSection = SectionParts;

/** A collection's sections as a bundle holds them, in any order: the plan parses and orders them. */
export interface PlanSource {
  collection: string;
  variable: string;
  sections: readonly PlanSection[];
}

/** A collection's sections already parsed, in render order (masters first), as the collection model has them. */
export interface ParsedPlanSource {
  collection: string;
  variable: string;
  ordered: readonly ParsedSection[];
}

/** Where a manifest member came from, as a problem found in it is told to the caller (CollectionRenderPlan.originOf). */
export type MemberOrigin =
  // The request member whose value it is.
  | { from: 'request'; path: string[] }
  // Not rendered: the manifest lacks it, and the sections of these facets write it.
  | { from: 'facets'; facets: string[] }
  // Made by the template from values: the request member that holds them all.
  | { from: 'values'; path: string[] }
  // Written by the sections themselves.
  | { from: 'template' };

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
  /** In render order: masters first (CONTRACT §4). */
  readonly sections: readonly ParsedSection[];
  private readonly facetSet: ReadonlySet<string>;
  /** Valid facet lists → selection; included sections → render function. */
  private readonly selections = new FacetListCache<Selection>();
  private readonly functions = new Map<string, CompiledSelection>();

  constructor(source: PlanSource | ParsedPlanSource) {
    this.collection = source.collection;
    this.variable = source.variable;
    this.sections = 'ordered' in source ? source.ordered : orderedSections(source.sections);
    this.facetSet = new Set(this.sections.flatMap((section) => section.facets));
    this.facets = [...this.facetSet].sort();
  }

  /**
   * The sections a facet list includes, with their compiled render function; unknown facets are a
   * 422 naming the known ones. Entries that are not strings are left to the request-shape check.
   * Valid lists are remembered, so a repeated list costs one lookup per facet.
   */
  select(facets: readonly unknown[] = []): Selection {
    const remembered = this.selections.get(facets);
    if (remembered !== undefined) return remembered;
    const problems: Problem[] = [];
    // Made once: a request may name a hundred thousand unknown facets.
    const known = `; its facets are ${this.facets.join(', ')}`;
    facets.forEach((facet, index) => {
      if (typeof facet === 'string' && !this.facetSet.has(facet)) {
        // Suggestions for as many as an answer lists: beyond them nobody reads one.
        const suggestion = problems.length < LISTED_PROBLEMS ? this.closestFacet(facet) : undefined;
        problems.push({
          pointer: `/facets/${index}`,
          detail: `"${facet}" is not a facet of ${this.collection}${known}${didYouMean(suggestion)}`,
        });
      }
    });
    if (problems.length > 0) throw new RenderError('Unknown facet', problems);
    const requested = new Set(facets.filter((facet): facet is string => typeof facet === 'string'));
    const included: number[] = [];
    this.sections.forEach((section, index) => {
      if (section.master || section.facets.some((facet) => requested.has(facet))) included.push(index);
    });
    const includedKey = included.join(',');
    let compiled = this.functions.get(includedKey);
    if (compiled === undefined) {
      const sites: PlanSite[] = [];
      compiled = { render: generateRenderFunction(mergedPlan(this.collection, this.sections, included, sites)), sites };
      remember(this.functions, includedKey, compiled);
    }
    const selection = { included, ...compiled };
    // Only lists of distinct facets are remembered, so the trie stays as small as the facets allow.
    if (requested.size === facets.length && facets.length <= this.facets.length) this.selections.set(facets as string[], selection);
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
   * Where the manifest member at `at` came from, the one question a problem found in the manifest
   * asks: the request member that wrote it; when the manifest lacks it, the facets whose sections
   * write it; else the request member holding every value rendered under it; else the template.
   */
  originOf(selection: Selection, at: readonly string[], resolved: ResolvedVariable, manifest: JsonObject): MemberOrigin {
    const path = this.requestPathOf(selection, at, resolved);
    if (path !== undefined) return { from: 'request', path };
    const holder = this.requestPathHolding(selection, at, resolved);
    const facets = lookup(manifest, at) === undefined ? this.facetsWriting(at) : [];
    // A facet's section writes it and is chosen: the values lack it, at the member that would hold it.
    if (facets.length > 0 && holder !== undefined) return { from: 'values', path: holder.slice(0, 2 + at.length) };
    if (facets.length > 0) return { from: 'facets', facets };
    return holder === undefined ? { from: 'template' } : { from: 'values', path: holder };
  }

  /**
   * The request member that holds every value rendered under `at`, or undefined when no placeholder
   * lands there: for a rule about a whole object (a CRD's CEL rule on spec, say) whose members came
   * from the values.
   */
  private requestPathHolding(selection: Selection, at: readonly string[], resolved: ResolvedVariable): string[] | undefined {
    const sources = selection.sites
      .filter((site) => isPathPrefix(at, site.at))
      .map((site) => this.requestPathOf(selection, site.at, resolved)!);
    if (sources.length === 0) return undefined;
    return sources.reduce((common, path) => {
      let length = 0;
      while (length < common.length && common[length] === path[length]) length++;
      return common.slice(0, length);
    });
  }

  /** Facets (besides master) of the sections that write `at` or a member under it: what a request must select to have it. */
  facetsWriting(at: readonly string[]): string[] {
    const writes = (section: ParsedSection) => {
      let node: unknown = section.content;
      for (const segment of at) {
        if (typeof node === 'string' && node.includes('{{')) return true; // a placeholder's value may hold the rest
        node = ownMember(node, segment);
        if (node === undefined) return false;
      }
      return true;
    };
    return [...new Set(this.sections.filter(writes).flatMap((section) => section.facets.filter((facet) => !isMasterFacet(facet))))];
  }

  /**
   * The sections a request really renders: included, and with a value for at least one of their
   * placeholders (or with none to fill). Used to check that examples cover every section.
   */
  renderedSections(request: RenderRequest): number[] {
    const resolved = resolveVariable(this.variable, request.values, request.globalvars);
    if ('pointer' in resolved) return [];
    return this.select(request.facets).included.filter((index) => {
      const { sites } = this.sections[index]!;
      return (
        sites.length === 0 ||
        sites.some((site) =>
          site.expressions.some((expression) =>
            expression.references.some((reference) => lookup(resolved.value, reference.path) !== undefined),
          ),
        )
      );
    });
  }
}
