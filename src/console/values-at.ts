// Values at a path of the request's `values`, read and written in place by the form.

import type { JsonObject, JsonValue } from '../util/json.js';

type Container = Record<string, JsonValue>;

export function getAt(root: JsonValue, segments: readonly string[]): JsonValue | undefined {
  let node: JsonValue | undefined = root;
  for (const segment of segments) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Container)[segment];
  }
  return node;
}

/** Sets (or, for undefined, removes) the value at a path, making the objects and lists above it. */
export function setAt(root: JsonObject, segments: readonly string[], value: JsonValue | undefined): void {
  let node: Container = root;
  segments.slice(0, -1).forEach((segment, index) => {
    if (node[segment] === null || typeof node[segment] !== 'object') node[segment] = /^\d+$/.test(segments[index + 1]!) ? [] : {};
    node = node[segment] as Container;
  });
  const last = segments.at(-1)!;
  if (value !== undefined) node[last] = value;
  else if (Array.isArray(node)) node.splice(Number(last), 1);
  else delete node[last];
}
