/**
 * ts-json-schema-generator's output of kubernetes-models' declarations made to read as the
 * Kubernetes OpenAPI does, the one place that knows how the two differ.
 */
import { definitionName, definitionRef } from './definition-ref.js';
import { isPlainObject, type JsonObject } from '../util/json.js';

type Schema = JsonObject;

const jsonSchemaProps = () => ({ $ref: definitionRef('JSONSchemaProps') });
/** A JSONSchemaProps or `other`, as the API server decodes JSONSchemaPropsOr*; a copy each, as probing writes into leaves. */
const propsOr = (other: Schema) => (description: unknown) =>
  ({ description, anyOf: [jsonSchemaProps(), structuredClone(other)] }) as Schema;

/** Declarations of types the OpenAPI gives no shape (`interface IJSON {}`), as what the API server takes. */
const SHAPELESS: Record<string, (description: unknown) => Schema> = {
  JSONSchemaPropsOrBool: propsOr({ type: 'boolean' }),
  JSONSchemaPropsOrArray: propsOr({ type: 'array', items: jsonSchemaProps() }),
  JSONSchemaPropsOrStringArray: propsOr({ type: 'array', items: { type: 'string' } }),
};

/**
 * The generator's output made to read as the OpenAPI does: definitions named as in Kubernetes
 * (`IServicePort` → `ServicePort`), objects left open (unknown members are warnings, found by the
 * unknown-member walker, CONTRACT §5), empty declarations accepting any JSON, descriptions unescaped.
 */
export function normaliseDefinitions(definitions: Record<string, unknown>): Record<string, Schema> {
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
    const empty = isPlainObject(definition) && definition.properties === undefined && definition.additionalProperties === false;
    const shapeless = empty && definition.type === 'object';
    const anyJson = () => (schema.description === undefined ? {} : { description: schema.description });
    out[renamed] = shapeless ? ((SHAPELESS[renamed]?.(schema.description) ?? anyJson()) as Schema) : schema;
  }
  return out;
}
