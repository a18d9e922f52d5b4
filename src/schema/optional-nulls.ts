/**
 * `null` for an optional member is unset (CONTRACT §5), as the API server reads it: Go's decoder
 * makes null a member's zero value, so `metadata.creationTimestamp: null` (as `kubectl create
 * --dry-run=client -o yaml` writes it) or a claim's `spec.storageClassName: null` is as if unwritten.
 * Input values are judged without such nulls; what is rendered keeps them as written, since kubectl
 * apply sends them and the API server takes them.
 *
 * Only a member the schema declares is read so, and never one its object lists as required: a
 * required member that is null stays null and its schema refuses it. A map's value that is null
 * (`labels: {app: null}`, a YAML `app:` with nothing after it) is Go's zero value, `""` here, which
 * a map of strings always takes: it is judged as unset too, and the API server's rules read it as
 * `""` (apiserver/golang/values.ts). Nulls in arrays are values and are judged as written.
 */
import { isPlainObject, setMember } from '../util/json.js';
import { isNullable, schemaParts } from './schema-parts.js';
import { holdsNull } from './structural-nulls.js';

type Node = Record<string, unknown>;

export class OptionalNulls {
  private constructor(
    private readonly schema: Node,
    private readonly definitions: Record<string, unknown>,
  ) {}

  static compile(schema: Node, definitions: Record<string, unknown> = {}): OptionalNulls {
    return new OptionalNulls(schema, definitions);
  }

  /** `value` without the nulls of its optional members: the same value (never changed) when it holds no null. */
  apply(value: unknown): unknown {
    return holdsNull(value) ? this.prune(value, this.schema) : value;
  }

  private prune(value: unknown, schema: Node | undefined): unknown {
    if (value === null || typeof value !== 'object' || !holdsNull(value)) return value;
    const parts = schemaParts(schema, this.definitions);
    if (Array.isArray(value)) {
      const items = parts.find((part) => isPlainObject(part.items))?.items as Node | undefined;
      return value.map((item) => this.prune(item, items));
    }
    const required = new Set(parts.flatMap((part) => (Array.isArray(part.required) ? part.required : [])));
    const result: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
      const declared = declaredMember(parts, name);
      const schema = declared ?? additionalMember(parts);
      if (member === null && (declared !== undefined ? !required.has(name) : this.isMapValue(schema))) continue;
      setMember(result, name, this.prune(member, schema));
    }
    return result;
  }

  /**
   * Whether a member the object does not declare is a map's value that null may not be: Go's
   * decoder stores the value type's zero value ("" in labels, annotations, a ConfigMap's data) and
   * the API server prunes it from a custom resource's map, so it is not the input schema's to
   * refuse; the kind's own rules judge the zero value on the rendered manifest.
   */
  private isMapValue(schema: Node | undefined): boolean {
    return schema !== undefined && !isNullable(schemaParts(schema, this.definitions));
  }
}

function declaredMember(parts: Node[], name: string): Node | undefined {
  for (const part of parts)
    if (isPlainObject(part.properties) && Object.hasOwn(part.properties, name) && isPlainObject(part.properties[name]))
      return part.properties[name] as Node;
  return undefined;
}

function additionalMember(parts: Node[]): Node | undefined {
  for (const part of parts) if (isPlainObject(part.additionalProperties)) return part.additionalProperties;
  return undefined;
}
