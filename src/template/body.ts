/**
 * A section body parsed into a template tree: the manifest content with every string parsed for
 * placeholders. Members whose names start with `$` are authors' metadata and `facets` selects the
 * section: neither is content (CONTRACT §1).
 */
import type { JsonObject, JsonPrimitive, JsonValue } from '../util/json.js';
import { isPlainObject } from '../util/json.js';
import { type Expression, type ParsedTemplate, expressionsOf, parseTemplate, PlaceholderSyntaxError } from './placeholder.js';

export type TemplateNode =
  | { kind: 'object'; members: Array<[string, TemplateNode]> }
  | { kind: 'array'; items: TemplateNode[] }
  | { kind: 'scalar'; value: JsonPrimitive }
  | { kind: 'placeholder'; template: Exclude<ParsedTemplate, { kind: 'literal' }> };

/** A placeholder in a body: where it lands in the manifest and what it reads. */
export interface PlaceholderSite {
  /** Member path in the manifest, e.g. ['spec', 'ports']. */
  at: string[];
  /** True when the string is exactly one placeholder, so the value keeps its JSON type. */
  whole: boolean;
  expressions: Expression[];
  source: string;
}

export interface BodySyntaxError {
  at: string[];
  error: PlaceholderSyntaxError;
}

/** Names of members that are never rendered. */
export function isContentMember(name: string): boolean {
  return name !== 'facets' && !name.startsWith('$');
}

/** The rendered members of a section file, in their authored order. */
export function contentOf(section: JsonObject): JsonObject {
  const content: JsonObject = {};
  for (const [name, value] of Object.entries(section)) {
    if (isContentMember(name)) content[name] = value;
  }
  return content;
}

/**
 * Parses a section's content into a template tree. Syntax errors are collected, not thrown, so that
 * lint can report every one of them; the returned tree treats a broken string as a literal.
 */
export function parseBody(content: JsonObject, errors: BodySyntaxError[] = []): TemplateNode {
  const visit = (value: JsonValue, at: string[]): TemplateNode => {
    if (Array.isArray(value)) return { kind: 'array', items: value.map((item, index) => visit(item, [...at, String(index)])) };
    if (isPlainObject(value)) {
      return { kind: 'object', members: Object.entries(value).map(([name, member]) => [name, visit(member, [...at, name])]) };
    }
    if (typeof value === 'string') {
      try {
        const template = parseTemplate(value);
        if (template.kind !== 'literal') return { kind: 'placeholder', template };
      } catch (error) {
        if (!(error instanceof PlaceholderSyntaxError)) throw error;
        errors.push({ at, error });
      }
    }
    return { kind: 'scalar', value: value as JsonPrimitive };
  };
  return visit(content, []);
}

/** Every placeholder of a template tree with the manifest path it lands on. */
export function placeholderSites(node: TemplateNode, at: string[] = []): PlaceholderSite[] {
  switch (node.kind) {
    case 'object':
      return node.members.flatMap(([name, member]) => placeholderSites(member, [...at, name]));
    case 'array':
      return node.items.flatMap((item, index) => placeholderSites(item, [...at, String(index)]));
    case 'placeholder':
      return [
        {
          at,
          whole: node.template.kind === 'whole',
          expressions: expressionsOf(node.template),
          source: node.template.kind === 'whole' ? `{{ ${node.template.expression.source} }}` : interpolationSource(node.template.parts),
        },
      ];
    default:
      return [];
  }
}

function interpolationSource(parts: Array<string | Expression>): string {
  return parts.map((part) => (typeof part === 'string' ? part : `{{ ${part.source} }}`)).join('');
}
