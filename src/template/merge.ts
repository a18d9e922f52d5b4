/**
 * Deep merge of section bodies (CONTRACT §4): objects merge member by member, in order of first
 * appearance. A placeholder that fills a whole member (`"metadata": "{{ __X__.metadata }}"`) may meet
 * objects other sections write there, as a feature adds an annotation: its value is an object too,
 * so the render merges them (render/plan-codegen.ts). Any other member written by two sections is a conflict.
 */
import type { TemplateNode } from './body.js';

export interface MergeConflict {
  /** Member path written twice. */
  at: string[];
}

type WholePlaceholder = Extract<TemplateNode, { kind: 'placeholder' }>;

/** A member one whole placeholder and objects fill together, in section order; the render merges them. */
export interface MergedParts {
  kind: 'merge';
  parts: Array<WholePlaceholder | MergedObject>;
}

export type MergedNode = Exclude<TemplateNode, { kind: 'object' }> | MergedObject | MergedParts;
export interface MergedObject {
  kind: 'object';
  members: Array<[string, MergedNode]>;
}

const isWhole = (node: MergedNode): node is WholePlaceholder => node.kind === 'placeholder' && node.template.kind === 'whole';

/** Whether a merge node may take `node`: objects always, a whole placeholder when it holds none yet. */
function joins(merged: MergedParts, node: MergedNode): node is MergedParts['parts'][number] {
  return node.kind === 'object' || (isWhole(node) && !merged.parts.some(isWhole));
}

/** The two members as one, or undefined when they conflict. */
function mergeMember(existing: MergedNode, node: MergedNode, conflicts: MergeConflict[], at: string[]): MergedNode | undefined {
  if (existing.kind === 'object' && node.kind === 'object') return mergeTemplates(existing, node, conflicts, at);
  if (existing.kind === 'merge') return joins(existing, node) ? { kind: 'merge', parts: [...existing.parts, node] } : undefined;
  const pair = [existing, node];
  if (pair.some(isWhole) && pair.some((member) => member.kind === 'object')) {
    return { kind: 'merge', parts: pair as MergedParts['parts'] };
  }
  return undefined;
}

/** Merges `next` into a copy of `base`, reporting conflicts instead of overwriting. */
export function mergeTemplates(base: MergedObject, next: MergedObject, conflicts: MergeConflict[] = [], at: string[] = []): MergedObject {
  const members = new Map(base.members);
  for (const [name, node] of next.members) {
    const existing = members.get(name);
    if (existing === undefined) {
      members.set(name, node);
      continue;
    }
    const merged = mergeMember(existing, node, conflicts, [...at, name]);
    if (merged === undefined) conflicts.push({ at: [...at, name] });
    else members.set(name, merged);
  }
  return { kind: 'object', members: [...members] };
}
