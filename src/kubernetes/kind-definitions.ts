/**
 * Reaching into a kind's definitions: following `$ref`s, the type of a member path of a manifest,
 * and the definitions a schema needs, transitively.
 */
import { definitionName } from './definition-ref.js';
import type { KindSchema, Schema } from './kind-schema.js';
import { isPlainObject } from '../util/json.js';

/** What the Kubernetes type says about one member path of a manifest. */
export interface MemberType {
  schema: Schema;
  /** Required at every level from the manifest root down to this member. */
  required: boolean;
}

/** The schema a `$ref` chain ends at (at most 32 deep); `{}` (anything) when it names no definition. */
export function resolveRef(schema: Schema, definitions: Record<string, Schema>): Schema {
  let current = schema;
  for (let depth = 0; typeof current.$ref === 'string' && depth < 32; depth++) {
    const name = definitionName(current.$ref);
    const target = name === undefined ? undefined : definitions[name];
    if (target === undefined) return {};
    current = target;
  }
  return current;
}

/** The type of the member at `at` in a manifest of this kind, or undefined when the type has no such member. */
export function memberType(kind: KindSchema, at: readonly string[]): MemberType | undefined {
  let schema: Schema = kind.definitions[kind.kind] ?? {};
  let required = true;
  for (const segment of at) {
    const resolved = resolveRef(schema, kind.definitions);
    const properties = resolved.properties;
    if (isPlainObject(properties) && Object.hasOwn(properties, segment)) {
      required &&= Array.isArray(resolved.required) && resolved.required.includes(segment);
      schema = properties[segment] as Schema;
    } else if (/^[0-9]+$/.test(segment) && isPlainObject(resolved.items)) {
      required = false;
      schema = resolved.items as Schema;
    } else if (isPlainObject(resolved.additionalProperties)) {
      required = false;
      schema = resolved.additionalProperties as Schema;
    } else {
      return undefined;
    }
  }
  return { schema, required };
}

/** Names of the definitions a schema refers to, transitively. */
export function referencedDefinitions(schema: unknown, definitions: Record<string, Schema>, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) referencedDefinitions(item, definitions, found);
  } else if (isPlainObject(schema)) {
    for (const [key, member] of Object.entries(schema)) {
      const name = key === '$ref' && typeof member === 'string' ? definitionName(member) : undefined;
      if (name !== undefined) {
        if (!found.has(name) && definitions[name] !== undefined) {
          found.add(name);
          referencedDefinitions(definitions[name], definitions, found);
        }
      } else {
        referencedDefinitions(member, definitions, found);
      }
    }
  }
  return found;
}
