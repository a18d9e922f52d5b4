/** The OpenAPI keywords (and keyword values) a CRD schema may not use, at any depth; patterns must be Go (RE2) syntax. */
import { GO_PATTERN_FIX, goRegExpError } from '../schema/go-regexp.js';
import type { Add, SchemaNode as Node } from './structural-report.js';

const UNSUPPORTED: Record<string, string> = {
  $ref: '$ref is not supported',
  id: 'id is not supported',
  additionalItems: 'additionalItems is not supported',
  patternProperties: 'patternProperties is not supported',
  definitions: 'definitions is not supported',
  dependencies: 'dependencies is not supported',
};

/** OpenAPI keywords a CRD schema may not use, at any depth. */
export function checkKeywords(node: Node, path: Array<string | number>, add: Add): void {
  for (const [keyword, message] of Object.entries(UNSUPPORTED)) {
    if (node[keyword] === undefined) continue;
    add(
      [...path, keyword],
      message,
      keyword === '$ref' ? 'write the referenced schema inline: CRD schemas have no definitions to refer to' : `remove ${keyword}`,
    );
  }
  if (node.uniqueItems === true)
    add(
      [...path, 'uniqueItems'],
      'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      'use x-kubernetes-list-type: set for a list of unique scalars',
    );
  if (Array.isArray(node.items))
    add([...path, 'items'], 'items must be a schema object and not an array', 'give one schema for every element');
  const refused = typeof node.pattern === 'string' ? goRegExpError(node.pattern) : undefined;
  if (refused !== undefined)
    add(
      [...path, 'pattern'],
      `Invalid value: ${JSON.stringify(node.pattern)}: must be a valid regular expression, but isn't: ${refused}`,
      GO_PATTERN_FIX,
    );
}
