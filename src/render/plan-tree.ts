/**
 * The merged plan of the sections one selection includes: their templates merged, the leading
 * members first, each placeholder bound to the references it reads and whether it is required.
 */
import { leadingFirst } from '../collection/leading-members.js';
import type { ParsedSection } from '../collection/section.js';
import { mergeTemplates, type MergeConflict, type MergedNode, type MergedObject } from '../template/merge.js';
import { type Expression, expressionsOf } from '../template/placeholder.js';
import { toPointer } from '../util/json.js';
import type { PlanNode, ValuePath } from './plan-codegen.js';

/** A placeholder of a merged plan: where it lands and what it reads. */
export interface PlanSite {
  at: string[];
  /** The references it reads, in order; the first with a value is the one rendered. */
  references: string[][];
  /** A whole placeholder puts the value itself there, so members below it come from the value too. */
  whole: boolean;
}

/** The plan of the `included` sections (indices into `sections`); their placeholders are added to `sites`. */
export function mergedPlan(
  collection: string,
  sections: readonly ParsedSection[],
  included: readonly number[],
  sites: PlanSite[],
): PlanNode {
  const conflicts: MergeConflict[] = [];
  let tree: MergedObject = { kind: 'object', members: [] };
  const required = new Set<string>();
  for (const index of included) {
    tree = mergeTemplates(tree, sections[index]!.template, conflicts);
    for (const pointer of sections[index]!.required) required.add(pointer);
  }
  if (conflicts.length > 0) {
    // Lint refuses such bundles; reaching this means a bundle was built without it.
    throw new Error(`${collection}: sections write the same member ${conflicts.map((c) => toPointer(c.at)).join(', ')}`);
  }
  return planNode({ kind: 'object', members: leadingFirst(tree.members) }, [], required, sites, true);
}

function planNode(node: MergedNode, at: string[], required: ReadonlySet<string>, sites: PlanSite[], root = false): PlanNode {
  switch (node.kind) {
    case 'scalar':
      return { t: 'const', value: node.value };
    case 'object':
      if (node.members.some(([name]) => name === '__proto__')) throw new Error('a member named __proto__ cannot be rendered'); // lint refuses it
      return {
        t: 'object',
        keys: node.members.map(([name]) => name),
        nodes: node.members.map(([name, member]) => planNode(member, [...at, name], required, sites)),
        root,
      };
    case 'merge':
      // A whole placeholder's object and the objects other sections write there, merged when rendered.
      return { t: 'merge', parts: node.parts.map((part) => planNode(part, at, required, sites)), at: toPointer(at) };
    case 'array':
      return { t: 'array', nodes: node.items.map((item, index) => planNode(item, [...at, String(index)], required, sites)) };
    case 'placeholder': {
      const pointer = toPointer(at);
      const isRequired = required.has(pointer);
      const references = expressionsOf(node.template).flatMap((expression) => expression.references.map((reference) => reference.path));
      sites.push({ at, references, whole: node.template.kind === 'whole' });
      if (node.template.kind === 'whole') {
        return { t: 'value', alternatives: valuePaths(node.template.expression), required: isRequired, at: pointer };
      }
      return {
        t: 'text',
        parts: node.template.parts.map((part) => (typeof part === 'string' ? part : valuePaths(part))),
        required: isRequired,
        at: pointer,
      };
    }
  }
}

function valuePaths(expression: Expression): ValuePath[] {
  return expression.references.map((reference) => ({ path: reference.path, text: reference.path.join('.') }));
}
