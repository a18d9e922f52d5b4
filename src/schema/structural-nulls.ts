/**
 * The nulls the API server drops from a custom resource before it defaults and judges it
 * (apiextensions' PruneNonNullableNullsWithoutDefaults): a member whose schema is not nullable and
 * has no default is gone when it is null, so `tls: null` is as if unwritten. Most manifests hold no
 * null: a scan finds that first, and only a manifest with one is copied.
 */
import { isPlainObject, setMember } from '../util/json.js';
import { isNullable, schemaParts } from './schema-parts.js';

type Node = Record<string, unknown>;

export class NullPruning {
  private constructor(
    private readonly schema: Node,
    private readonly definitions: Record<string, unknown>,
  ) {}

  /** The pruning `schema` asks for; its `$ref`s are read in `definitions`. */
  static compile(schema: Node, definitions: Record<string, unknown> = {}): NullPruning {
    return new NullPruning(schema, definitions);
  }

  /** `value` without its prunable nulls: the same value (never changed) when it has no null. */
  apply(value: unknown): unknown {
    return holdsNull(value) ? this.prune(value, this.schema) : value;
  }

  private parts(schema: Node | undefined): Node[] {
    return schemaParts(schema, this.definitions);
  }

  private prune(value: unknown, schema: Node | undefined): unknown {
    if (value === null || !holdsNull(value)) return value;
    const parts = this.parts(schema);
    if (Array.isArray(value)) {
      const items = parts.find((part) => isPlainObject(part.items))?.items as Node | undefined;
      return value.map((item) => this.prune(item, items));
    }
    const result: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
      const child = memberSchema(parts, name);
      if (member === null && child !== undefined && prunable(this.parts(child))) continue;
      setMember(result, name, this.prune(member, child));
    }
    return result;
  }
}

/** Go's getSchemaForField: the declared member's schema, else additionalProperties'. */
function memberSchema(parts: Node[], name: string): Node | undefined {
  for (const part of parts)
    if (isPlainObject(part.properties) && isPlainObject(part.properties[name])) return part.properties[name] as Node;
  for (const part of parts) if (isPlainObject(part.additionalProperties)) return part.additionalProperties;
  return undefined;
}

/** Not nullable and without a default. */
const prunable = (parts: Node[]): boolean => !isNullable(parts) && !parts.some((part) => part.default !== undefined);

export function holdsNull(value: unknown): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.some(holdsNull);
  if (typeof value !== 'object' || value === undefined) return false;
  for (const key in value) if (holdsNull((value as Record<string, unknown>)[key])) return true;
  return false;
}
