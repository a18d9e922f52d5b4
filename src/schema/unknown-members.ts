/**
 * Unknown members of an input object (CONTRACT §5): members its schema does not know, at any depth.
 * The Kubernetes API server warns about these by default and rejects them under strict field
 * validation; so do we. A walker is built lazily from the schema and kept, so each request only walks.
 */
import { escapePointerSegment, isPlainObject } from '../util/json.js';
import { definitionName } from '../kubernetes/definition-ref.js';
import type { Schema } from '../kubernetes/kind-schema.js';

/** At most this many unknown members are reported for one request. */
export const UNKNOWN_MEMBER_LIMIT = 100;

export class MemberWalker {
  /** Accepts any member: a free-form object or any JSON. */
  private any = false;
  /** Members other than the known ones are unknown. */
  private closed = false;
  private readonly properties = new Map<string, Schema[]>();
  private readonly additional: Schema[] = [];
  private readonly items: Schema[] = [];
  /** Walkers of the members, made on first use: a member's by its name, then any other member's, then an item's. */
  private readonly memberWalkers = new Map<string, MemberWalker>();
  private additionalWalker: MemberWalker | undefined;
  private itemWalker: MemberWalker | undefined;

  constructor(
    schemas: Schema[],
    private readonly definitions: Record<string, Schema>,
  ) {
    for (const schema of schemas) this.absorb(schema, new Set());
  }

  private absorb(schema: Schema, following: Set<string>): void {
    if (typeof schema.$ref === 'string') {
      const name = definitionName(schema.$ref) ?? schema.$ref;
      const target = this.definitions[name];
      if (target === undefined || following.has(name)) {
        this.any = true;
        return;
      }
      this.absorb(target, new Set([...following, name]));
    }
    for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
      const branches = schema[keyword];
      if (Array.isArray(branches)) for (const branch of branches) if (isPlainObject(branch)) this.absorb(branch as Schema, following);
    }
    const properties = isPlainObject(schema.properties) ? (schema.properties as Record<string, Schema>) : undefined;
    for (const [name, member] of Object.entries(properties ?? {})) {
      if (!this.properties.has(name)) this.properties.set(name, []);
      this.properties.get(name)!.push(member);
    }
    if (isPlainObject(schema.additionalProperties)) this.additional.push(schema.additionalProperties as Schema);
    if (isPlainObject(schema.items)) this.items.push(schema.items as Schema);
    const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
    const shapeless =
      schema.$ref === undefined &&
      types.length === 0 &&
      !properties &&
      !['allOf', 'anyOf', 'oneOf', 'enum', 'const'].some((k) => k in schema);
    const freeObject = types.includes('object') && !properties && !isPlainObject(schema.additionalProperties);
    if (shapeless || freeObject || schema.additionalProperties === true) this.any = true;
    if (properties) this.closed = true;
  }

  /** The walker of member `key`, or undefined when its object does not know it. No string is built per member. */
  private memberWalker(key: string): MemberWalker | undefined {
    const made = this.memberWalkers.get(key);
    if (made !== undefined) return made;
    const known = this.properties.get(key);
    if (known !== undefined) {
      const walker = new MemberWalker(known, this.definitions);
      this.memberWalkers.set(key, walker);
      return walker;
    }
    if (this.additional.length === 0) return undefined;
    return (this.additionalWalker ??= new MemberWalker(this.additional, this.definitions));
  }

  /** Adds the pointer of every unknown member under `value` to `found`. */
  walk(value: unknown, pointer: string, found: string[]): void {
    this.visit(value, [pointer], found);
  }

  // The path is a stack of segments, joined into a pointer only for an unknown member: most
  // requests have none, and building a pointer for every member would cost more than the walk.
  private visit(value: unknown, path: string[], found: string[]): void {
    if (this.any || found.length >= UNKNOWN_MEMBER_LIMIT || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      if (this.items.length === 0) return;
      const items = (this.itemWalker ??= new MemberWalker(this.items, this.definitions));
      for (let index = 0; index < value.length; index++) {
        path.push(String(index));
        items.visit(value[index], path, found);
        path.pop();
      }
      return;
    }
    for (const key of Object.keys(value)) {
      const walker = this.memberWalker(key);
      if (walker !== undefined) {
        if (walker.any) continue;
        path.push(key);
        walker.visit((value as Record<string, unknown>)[key], path, found);
        path.pop();
      } else if (this.closed) {
        found.push(
          [path[0], ...path.slice(1), key].map((segment, index) => (index === 0 ? segment : escapePointerSegment(segment!))).join('/'),
        );
        if (found.length >= UNKNOWN_MEMBER_LIMIT) return;
      }
    }
  }
}
