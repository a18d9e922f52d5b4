/**
 * Lists a CRD keys (`x-kubernetes-list-type: map` with `x-kubernetes-list-map-keys`) hold each key
 * once, and sets (`x-kubernetes-list-type: set`) each element once: the API server refuses a second
 * entry with the same key, or the first repeat of an element, at its index ("Duplicate value"),
 * which JSON Schema cannot say (uniqueItems points at the list), so it is checked here, along the
 * schema, compiled once per version.
 */
import canonicalize from 'canonicalize';
import { goValue } from '../apiserver/apimachinery/field-error.js';
import type { Problem } from '../request/problems.js';
import { isPlainObject, type JsonObject, toPointer } from '../util/json.js';

interface KeyNode {
  /** Set when this node is a keyed list: the members that make an entry's key. */
  keys?: string[];
  /** A set: every element once. */
  set?: boolean;
  properties: Map<string, KeyNode>;
  items?: KeyNode;
  additional?: KeyNode;
}

function build(schema: Record<string, unknown>): KeyNode | undefined {
  const node: KeyNode = { properties: new Map() };
  const keys = schema['x-kubernetes-list-map-keys'];
  if (schema['x-kubernetes-list-type'] === 'map' && Array.isArray(keys) && keys.every((key) => typeof key === 'string'))
    node.keys = keys as string[];
  if (schema['x-kubernetes-list-type'] === 'set') node.set = true;
  if (isPlainObject(schema.properties)) {
    for (const [name, member] of Object.entries(schema.properties)) {
      const child = isPlainObject(member) ? build(member) : undefined;
      if (child !== undefined) node.properties.set(name, child);
    }
  }
  if (isPlainObject(schema.items)) node.items = build(schema.items);
  if (isPlainObject(schema.additionalProperties)) node.additional = build(schema.additionalProperties);
  const empty =
    node.keys === undefined && node.set !== true && node.properties.size === 0 && node.items === undefined && node.additional === undefined;
  return empty ? undefined : node;
}

export class ListMapKeys {
  private constructor(private readonly root: KeyNode | undefined) {}

  static compile(schema: JsonObject): ListMapKeys {
    return new ListMapKeys(build(schema));
  }

  /** Every entry whose key an earlier entry of its list already has, pointed at the entry. */
  check(manifest: unknown): Problem[] {
    const problems: Problem[] = [];
    if (this.root !== undefined) visit(this.root, manifest, [], problems);
    return problems;
  }
}

function visit(node: KeyNode, value: unknown, path: Array<string | number>, problems: Problem[]): void {
  if (Array.isArray(value)) {
    if (node.keys !== undefined) {
      const seen = new Set<string>();
      value.forEach((entry, index) => {
        if (!isPlainObject(entry)) return;
        const key = JSON.stringify(node.keys!.map((name) => entry[name] ?? null));
        if (seen.has(key))
          problems.push({
            pointer: toPointer([...path, index]),
            detail:
              `Duplicate value: ${JSON.stringify(Object.fromEntries(node.keys!.map((name) => [name, entry[name]])))}: ` +
              `each ${node.keys!.join(', ')} may appear once in this list`,
          });
        seen.add(key);
      });
    }
    if (node.set === true) {
      // Go's validateListSet: elements compared as JSON with sorted keys, each repeated one named once, at its first repeat.
      const times = new Map<string, number>();
      value.forEach((entry, index) => {
        const text = canonicalize(entry) ?? 'null';
        const seen = times.get(text) ?? 0;
        times.set(text, seen + 1);
        if (seen === 1) problems.push({ pointer: toPointer([...path, index]), detail: `Duplicate value: ${goValue(entry)}` });
      });
    }
    if (node.items !== undefined) value.forEach((entry, index) => visit(node.items!, entry, [...path, index], problems));
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [name, member] of Object.entries(value)) {
    const child = node.properties.get(name) ?? node.additional;
    if (child !== undefined) visit(child, member, [...path, name], problems);
  }
}
