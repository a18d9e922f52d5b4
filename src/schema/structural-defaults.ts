/**
 * A custom resource's defaults as the API server fills them in before it judges the object
 * (apiextensions' structural defaulting): a member the schema gives a `default` is set when it is
 * missing or a null its schema does not allow, then defaults below are filled in, into defaults too.
 * Compiled once from a schema (a CRD's openAPIV3Schema or the JSON Schema made from it, `$ref`s
 * followed), down only the paths that lead to a default: a schema without any costs nothing per value.
 */
import { isPlainObject, type JsonValue, setMember } from '../util/json.js';
import { isNullable, schemaParts } from './schema-parts.js';

type Node = Record<string, unknown>;

/** A place a value may sit: its schema's default and nullability, and the defaults below it. */
interface Slot {
  default: JsonValue | undefined;
  nullable: boolean;
  node: DefaultingNode | undefined;
}

interface DefaultingNode {
  /** Declared members, each with its slot (those leading to no default are dropped after the build). */
  properties: Map<string, Slot>;
  /** Names declared by `properties`: the other members are additionalProperties' (Go's rule). */
  declared: Set<string>;
  additional: Slot | undefined;
  items: Slot | undefined;
}

export class SchemaDefaults {
  private constructor(private readonly root: DefaultingNode) {}

  /** The defaults of `schema` (its `$ref`s read in `definitions`), or undefined when it has none. */
  static compile(schema: Node, definitions: Record<string, unknown> = {}): SchemaDefaults | undefined {
    const built = new Map<string, DefaultingNode>();
    const all: DefaultingNode[] = [];
    // Structural schemas keep defaults out of junctors; allOf only adds to a node here (a $ref with a description).
    const resolve = (node: Node): Node[] => schemaParts(node, definitions);
    const nodeOf = (schema: Node): DefaultingNode => {
      const onlyRef = typeof schema.$ref === 'string' && !['properties', 'additionalProperties', 'items', 'allOf'].some((k) => k in schema);
      const key = onlyRef ? (schema.$ref as string) : undefined;
      const known = key === undefined ? undefined : built.get(key);
      if (known !== undefined) return known; // recursive definitions (JSONSchemaProps) end here
      const node: DefaultingNode = { properties: new Map(), declared: new Set(), additional: undefined, items: undefined };
      if (key !== undefined) built.set(key, node);
      all.push(node);
      for (const part of resolve(schema)) {
        if (isPlainObject(part.properties))
          for (const [name, member] of Object.entries(part.properties)) {
            node.declared.add(name);
            if (isPlainObject(member)) node.properties.set(name, slotOf(member));
          }
        if (isPlainObject(part.additionalProperties)) node.additional = slotOf(part.additionalProperties);
        if (isPlainObject(part.items)) node.items = slotOf(part.items);
      }
      return node;
    };
    const slotOf = (member: Node): Slot => {
      const parts = resolve(member);
      const found = parts.find((part) => part.default !== undefined)?.default as JsonValue | undefined;
      return { default: found, nullable: isNullable(parts), node: nodeOf(member) };
    };
    const root = nodeOf(schema);
    return prune(all) && useful(root) ? new SchemaDefaults(root) : undefined;
  }

  /** `value` with the defaults filled in: a new value where one was added, the same value (never changed) otherwise. */
  apply(value: unknown): unknown {
    return fill(value, this.root);
  }
}

const useful = (node: DefaultingNode) => node.properties.size > 0 || node.additional !== undefined || node.items !== undefined;

/** Drops slots that lead to no default, until none is left to drop; false when nothing has a default. */
function prune(nodes: DefaultingNode[]): boolean {
  const leads = (slot: Slot | undefined) =>
    slot !== undefined && (slot.default !== undefined || (slot.node !== undefined && useful(slot.node)));
  for (let changed = true; changed;) {
    changed = false;
    for (const node of nodes) {
      for (const [name, slot] of node.properties) if (!leads(slot)) changed = node.properties.delete(name) || changed;
      if (node.additional !== undefined && !leads(node.additional)) [node.additional, changed] = [undefined, true];
      if (node.items !== undefined && !leads(node.items)) [node.items, changed] = [undefined, true];
    }
  }
  return nodes.some(useful);
}

/** Go's Default(): a missing member or a non-nullable null takes the default, then each member is filled in below. */
function fill(value: unknown, node: DefaultingNode | undefined): unknown {
  if (node === undefined) return value;
  if (Array.isArray(value)) {
    if (node.items === undefined) return value;
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const filled = fillSlot(item, node.items!);
      if (filled !== item) (copy ??= [...value])[index] = filled;
    });
    return copy ?? value;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [name, slot] of node.properties) {
    const present = Object.hasOwn(value, name);
    if (slot.default === undefined && !present) continue;
    const member = present ? value[name] : undefined;
    const filled = fillSlot(member, slot);
    if (filled !== member) setMember((copy ??= { ...value }), name, filled);
  }
  if (node.additional !== undefined) {
    for (const [name, member] of Object.entries(value)) {
      if (node.declared.has(name)) continue;
      const filled = fillSlot(member, node.additional);
      if (filled !== member) setMember((copy ??= { ...value }), name, filled);
    }
  }
  return copy ?? value;
}

/** A member, list element or map value: the slot's default where it is missing or a non-nullable null. */
function fillSlot(value: unknown, slot: Slot): unknown {
  if ((value === undefined || (value === null && !slot.nullable)) && slot.default !== undefined)
    return fill(structuredClone(slot.default), slot.node);
  return value === undefined ? undefined : fill(value, slot.node);
}
