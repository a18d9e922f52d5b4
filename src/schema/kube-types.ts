/**
 * The Kubernetes API types as JSON Schema, with every constraint of the official OpenAPI.
 * `kubernetes-models` carries them in two forms: TypeScript declarations (structure, required
 * members, enums, descriptions), which `ts-json-schema-generator` turns into JSON Schema, and ajv
 * validators compiled from the OpenAPI, which alone know int32/int64, byte, date-time and quantity.
 * Each number or string leaf is therefore asked of the kind's validator (a probe value placed at
 * that member) and takes the integer type and format the validator demands. Generation costs a few
 * seconds per program, so a build creates one program per API group version its collections use,
 * and keeps what it made on disk for the next run (kind-schema-cache.ts).
 */
import { createRequire } from 'node:module';
import { kubeModel, type KindValidator } from '../manifest/kube-models.js';
import { KindSchemaCache } from './kind-schema-cache.js';
import { definitionName, definitionRef } from './definition-ref.js';
import type { JsonObject } from '../util/json.js';
import { isPlainObject, toPointer } from '../util/json.js';

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

// Loading the generator loads TypeScript, half a second: only a run that generates pays for it.
const loadGenerator = () => createRequire(import.meta.url)('ts-json-schema-generator') as typeof import('ts-json-schema-generator');

let shared: KubeTypes | undefined;

export class KubeTypes {
  private readonly kinds = new Map<string, KindSchema>();

  private constructor(private readonly cache: KindSchemaCache | undefined) {}

  /** Generates the schemas of the given kinds, reading and writing no cache; kinds kubernetes-models does not know are left out. */
  static generate(wanted: Array<{ apiVersion: string; kind: string }>): KubeTypes {
    return new KubeTypes(undefined).add(wanted);
  }

  /** None yet; `add` reads each kind from `cache` before generating it, and writes what it generates. */
  static cachedIn(cache: KindSchemaCache): KubeTypes {
    return new KubeTypes(cache);
  }

  /**
   * The process's one set, for builds and `facetform dev` that compile again and again: each kind is
   * read from the disk cache or generated once, and every later compile takes it from here. A kind's
   * schema is the same whichever compile asked for it first.
   */
  static shared(): KubeTypes {
    // The code that generates and probes: this folder, manifest/ (kinds, validators, formats) and util/.
    shared ??= KubeTypes.cachedIn(KindSchemaCache.open(['./', '../manifest/', '../util/'].map((folder) => new URL(folder, import.meta.url))));
    return shared;
  }

  /** Generates the schemas of the given kinds that are not here yet; returns this. */
  add(wanted: Array<{ apiVersion: string; kind: string }>): this {
    const byDeclarations = new Map<string, Set<string>>();
    for (const { apiVersion, kind } of wanted) {
      if (this.kinds.has(`${apiVersion}|${kind}`)) continue;
      const model = kubeModel(apiVersion, kind);
      if (model === undefined) continue;
      const cached = this.cache?.read(apiVersion, kind);
      if (cached !== undefined) {
        this.kinds.set(`${apiVersion}|${kind}`, cached);
        continue;
      }
      if (!byDeclarations.has(model.declarations)) byDeclarations.set(model.declarations, new Set());
      byDeclarations.get(model.declarations)!.add(`${apiVersion}|${kind}`);
    }
    for (const [file, keys] of byDeclarations) {
      const generator = loadGenerator().createGenerator({ path: file, expose: 'export', topRef: true, skipTypeCheck: true, jsDoc: 'extended' });
      for (const key of [...keys].sort()) {
        const [apiVersion, kind] = key.split('|') as [string, string];
        const model = kubeModel(apiVersion, kind)!;
        const generated = generator.createSchema(model.typeName);
        const definitions = normalise(generated.definitions ?? {});
        addValidatorConstraints(kind, definitions, model.validate);
        this.kinds.set(key, { kind, apiVersion, definitions });
        this.cache?.write({ kind, apiVersion, definitions });
      }
    }
    return this;
  }

  kindSchema(apiVersion: string, kind: string): KindSchema | undefined {
    return this.kinds.get(`${apiVersion}|${kind}`);
  }
}

/** Declarations of types the OpenAPI gives no shape (`interface IJSON {}`), as what the API server takes. */
const SHAPELESS: Record<string, (description: unknown) => Schema> = {
  JSONSchemaPropsOrBool: (description) => ({ description, anyOf: [{ $ref: '#/definitions/JSONSchemaProps' }, { type: 'boolean' }] }) as Schema,
  JSONSchemaPropsOrArray: (description) => ({ description, anyOf: [{ $ref: '#/definitions/JSONSchemaProps' }, { type: 'array', items: { $ref: '#/definitions/JSONSchemaProps' } }] }) as Schema,
  JSONSchemaPropsOrStringArray: (description) => ({ description, anyOf: [{ $ref: '#/definitions/JSONSchemaProps' }, { type: 'array', items: { type: 'string' } }] }) as Schema,
};

/**
 * The generator's output made to read as the OpenAPI does: definitions named as in Kubernetes
 * (`IServicePort` → `ServicePort`), objects left open (unknown members are warnings, found by the
 * unknown-member walker, CONTRACT §5), empty declarations accepting any JSON, descriptions unescaped.
 */
function normalise(definitions: Record<string, unknown>): Record<string, Schema> {
  const rename = (name: string) => (/^I[A-Z]/.test(name) ? name.slice(1) : name);
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      if (key === 'additionalProperties' && member === false) continue;
      if (key === '$ref' && typeof member === 'string') out[key] = definitionRef(rename(definitionName(member) ?? member));
      else if (key === 'description' && typeof member === 'string') out[key] = member.replace(/\\([*/])/g, '$1');
      else out[key] = walk(member);
    }
    return out;
  };
  const out: Record<string, Schema> = {};
  for (const [name, definition] of Object.entries(definitions)) {
    const renamed = rename(name);
    const schema = walk(definition) as Schema;
    const shapeless = isPlainObject(definition) && definition.type === 'object' && definition.properties === undefined && definition.additionalProperties === false;
    if (shapeless) out[renamed] = SHAPELESS[renamed]?.(schema.description) ?? (schema.description === undefined ? {} : { description: schema.description });
    else out[renamed] = schema;
  }
  return out;
}

/** One step from a container to a member: where a probe value must be nested to reach a leaf. */
type Step = { key: string; container: 'object' | 'array' };

const PROBE_FRACTION = 0.5;
const PROBE_BEYOND_INT32 = 2 ** 31;
/** A string no Kubernetes format accepts: not base64, a date, a quantity … */
const PROBE_STRING = '%not-a-formatted-value%';

/**
 * Asks the kind's validator what each number and string leaf must be, and writes it into the
 * schema: `integer` with its int32/int64 format, or a string format. Each definition is probed once,
 * at the first manifest path that reaches it.
 */
function addValidatorConstraints(kind: string, definitions: Record<string, Schema>, validate: KindValidator): void {
  const reached = new Map<string, Step[]>();
  const queue: Array<[Schema, Step[]]> = [[definitions[kind] ?? {}, []]];
  reached.set(kind, []);
  const leaves: Array<{ schema: Schema; steps: Step[] }> = [];
  while (queue.length > 0) {
    const [schema, steps] = queue.shift()!;
    visitMembers(schema, steps, (member, at) => {
      const ref = typeof member.$ref === 'string' ? definitionName(member.$ref) : undefined;
      if (ref !== undefined) {
        if (!reached.has(ref) && definitions[ref] !== undefined) {
          reached.set(ref, at);
          queue.push([definitions[ref]!, at]);
          leaves.push({ schema: definitions[ref]!, steps: at });
        }
        return false;
      }
      leaves.push({ schema: member, steps: at });
      return true;
    });
  }
  for (const { schema, steps } of leaves) constrainLeaf(schema, steps, validate);
}

/** Calls `visit` for a schema's members at every depth, following unions; stops where `visit` says. */
function visitMembers(schema: Schema, steps: Step[], visit: (member: Schema, at: Step[]) => boolean): void {
  if (isPlainObject(schema.properties)) {
    for (const [name, member] of Object.entries(schema.properties)) {
      const at = [...steps, { key: name, container: 'object' as const }];
      if (visit(member as Schema, at)) visitMembers(member as Schema, at, visit);
    }
  }
  if (isPlainObject(schema.items)) {
    const at = [...steps, { key: '0', container: 'array' as const }];
    if (visit(schema.items as Schema, at)) visitMembers(schema.items as Schema, at, visit);
  }
  if (isPlainObject(schema.additionalProperties)) {
    const at = [...steps, { key: 'probe', container: 'object' as const }];
    if (visit(schema.additionalProperties as Schema, at)) visitMembers(schema.additionalProperties as Schema, at, visit);
  }
  for (const union of ['anyOf', 'allOf', 'oneOf']) {
    if (Array.isArray(schema[union])) for (const part of schema[union] as Schema[]) if (visit(part, steps)) visitMembers(part, steps, visit);
  }
}

/** The validator's errors for `value` placed at `steps` of an otherwise empty manifest. */
function probe(validate: KindValidator, steps: Step[], value: unknown): Array<{ keyword: string; params: Record<string, unknown> }> {
  let manifest: unknown = value;
  for (let index = steps.length - 1; index >= 0; index--) {
    const { key, container } = steps[index]!;
    manifest = container === 'array' ? [manifest] : { [key]: manifest };
  }
  const pointer = toPointer(steps.map((step) => step.key));
  return validate(manifest).filter((error) => error.instancePath === pointer);
}

function constrainLeaf(schema: Schema, steps: Step[], validate: KindValidator): void {
  const types = schema.type === undefined ? [] : ([] as unknown[]).concat(schema.type);
  if (schema.enum !== undefined || schema.const !== undefined || steps.length === 0) return;
  const parts: Schema[] = [];
  if (types.includes('number')) {
    const part: Schema = { type: 'number' };
    if (probe(validate, steps, PROBE_FRACTION).some((error) => error.keyword === 'type' && error.params.type === 'integer')) {
      part.type = 'integer';
      // Kubernetes integers are int32 or int64; the validator names int32 by its range.
      const range = probe(validate, steps, PROBE_BEYOND_INT32).find((error) => error.keyword === 'format');
      part.format = typeof range?.params.format === 'string' ? range.params.format : 'int64';
    }
    parts.push(part);
  }
  if (types.includes('string')) {
    const part: Schema = { type: 'string' };
    for (const error of probe(validate, steps, PROBE_STRING)) {
      if (error.keyword === 'format' && typeof error.params.format === 'string') part.format = error.params.format;
      if (error.keyword === 'pattern' && typeof error.params.pattern === 'string') part.pattern = error.params.pattern;
    }
    parts.push(part);
  }
  if (parts.length === 0) return;
  if (parts.length === 1 && types.length === 1) {
    Object.assign(schema, parts[0]);
  } else {
    delete schema.type;
    schema.anyOf = [...parts, ...types.filter((type) => type !== 'number' && type !== 'string').map((type) => ({ type }) as Schema)];
  }
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
