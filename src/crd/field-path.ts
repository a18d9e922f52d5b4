/**
 * The `fieldPath` of an x-kubernetes-validations rule: where, below the rule's node, a failure is
 * reported. Kubernetes takes a JSONPath-like path of member names, `.spec.replicas` or
 * `.labels['app.kubernetes.io/name']`, with no array indexes; it must name a member the schema has.
 */
import { isPlainObject } from '../util/json.js';

/** The member names of a fieldPath, or undefined when it is not one. */
export function parseFieldPath(path: string): string[] | undefined {
  const segments: string[] = [];
  let at = 0;
  const text = path.trim();
  if (text === '') return undefined;
  while (at < text.length) {
    if (text[at] === '.') {
      const match = /^[^.[\]]+/.exec(text.slice(at + 1));
      if (match === null) return undefined;
      segments.push(match[0]);
      at += 1 + match[0].length;
    } else if (text.startsWith("['", at)) {
      let name = '';
      let index = at + 2;
      for (; index < text.length && text[index] !== "'"; index++) {
        if (text[index] === '\\' && index + 1 < text.length) index++;
        name += text[index];
      }
      if (!text.startsWith("']", index)) return undefined;
      segments.push(name);
      at = index + 2;
    } else {
      return undefined;
    }
  }
  return segments;
}

/** Whether the members exist under `schema`: declared properties, or any key of a map. */
export function fieldPathExists(schema: Record<string, unknown>, segments: readonly string[]): boolean {
  let node: unknown = schema;
  for (const segment of segments) {
    if (!isPlainObject(node)) return false;
    if (isPlainObject(node.properties) && Object.hasOwn(node.properties, segment)) node = node.properties[segment];
    else if (isPlainObject(node.additionalProperties)) node = node.additionalProperties;
    else return false;
  }
  return true;
}
