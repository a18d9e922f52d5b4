/**
 * The Kubernetes API types as JSON Schema: `kubernetes-types` (TypeScript declarations generated
 * from the Kubernetes OpenAPI document) turned into JSON Schema by `ts-json-schema-generator`,
 * descriptions kept. Generation costs about a second per program, so a build creates one program
 * for every API group its collections use.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createGenerator } from 'ts-json-schema-generator';
import type { JsonObject } from '../util/json.js';
import { isPlainObject } from '../util/json.js';

export type Schema = JsonObject;

export interface KindSchema {
  kind: string;
  apiVersion: string;
  /** `#/definitions/<name>` targets reachable from the kind. */
  definitions: Record<string, Schema>;
}

/** What the Kubernetes type says about one member path of a manifest. */
export interface MemberType {
  schema: Schema;
  /** Required at every level from the manifest root down to this member. */
  required: boolean;
}

const require = createRequire(import.meta.url);
const typesRoot = path.dirname(require.resolve('kubernetes-types/package.json'));

/** `networking.k8s.io/v1` → `networking/v1`; `v1` → `core/v1`. */
export function typesModuleOf(apiVersion: string): string | undefined {
  const slash = apiVersion.lastIndexOf('/');
  const group = slash === -1 ? 'core' : apiVersion.slice(0, slash).split('.')[0]!;
  const version = apiVersion.slice(slash + 1);
  const file = path.join(typesRoot, group, `${version}.d.ts`);
  return existsSync(file) ? file : undefined;
}

export class KubeTypes {
  private constructor(private readonly kinds: Map<string, KindSchema>) {}

  /** Generates the schemas of the given kinds; kinds without Kubernetes types are left out. */
  static generate(wanted: Array<{ apiVersion: string; kind: string }>): KubeTypes {
    const byModule = new Map<string, Set<string>>();
    for (const { apiVersion, kind } of wanted) {
      const file = typesModuleOf(apiVersion);
      if (file === undefined) continue;
      if (!byModule.has(file)) byModule.set(file, new Set());
      byModule.get(file)!.add(`${apiVersion}|${kind}`);
    }
    const kinds = new Map<string, KindSchema>();
    for (const [file, keys] of byModule) {
      const generator = createGenerator({ path: file, expose: 'export', topRef: true, skipTypeCheck: true, jsDoc: 'extended' });
      for (const key of [...keys].sort()) {
        const [apiVersion, kind] = key.split('|') as [string, string];
        let generated;
        try {
          generated = generator.createSchema(kind);
        } catch {
          continue; // Not a type of this module: the collection's leaves then accept any JSON.
        }
        kinds.set(key, { kind, apiVersion, definitions: openObjects(generated.definitions ?? {}) as Record<string, Schema> });
      }
    }
    return new KubeTypes(kinds);
  }

  kindSchema(apiVersion: string, kind: string): KindSchema | undefined {
    return this.kinds.get(`${apiVersion}|${kind}`);
  }
}

/**
 * The generator closes every object (`additionalProperties: false`). Unknown members are warnings,
 * not errors (CONTRACT §5), and are found by the unknown-member walker, so the schemas stay open.
 */
function openObjects(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(openObjects);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (key === 'additionalProperties' && member === false) continue;
    out[key] = openObjects(member);
  }
  return out;
}

export function resolveRef(schema: Schema, definitions: Record<string, Schema>): Schema {
  let current = schema;
  for (let depth = 0; typeof current.$ref === 'string' && depth < 32; depth++) {
    const target = definitions[decodeURIComponent(current.$ref.replace('#/definitions/', ''))];
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
      if (key === '$ref' && typeof member === 'string' && member.startsWith('#/definitions/')) {
        const name = decodeURIComponent(member.slice('#/definitions/'.length));
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
