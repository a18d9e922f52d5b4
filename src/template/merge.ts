/**
 * Deep merge of section bodies (CONTRACT §4): objects merge member by member, in order of first
 * appearance; any other member written by two sections is a conflict.
 */
import type { TemplateNode } from './body.js';

export interface MergeConflict {
  /** Member path written twice. */
  at: string[];
}

type ObjectNode = Extract<TemplateNode, { kind: 'object' }>;

/** Merges `next` into a copy of `base`, reporting conflicts instead of overwriting. */
export function mergeTemplates(base: ObjectNode, next: ObjectNode, conflicts: MergeConflict[] = [], at: string[] = []): ObjectNode {
  const members = new Map(base.members);
  for (const [name, node] of next.members) {
    const existing = members.get(name);
    if (existing === undefined) {
      members.set(name, node);
    } else if (existing.kind === 'object' && node.kind === 'object') {
      members.set(name, mergeTemplates(existing, node, conflicts, [...at, name]));
    } else {
      conflicts.push({ at: [...at, name] });
    }
  }
  return { kind: 'object', members: [...members] };
}
