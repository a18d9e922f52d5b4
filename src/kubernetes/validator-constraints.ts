/**
 * What only kubernetes-models' ajv validators know of the Kubernetes types (compiled from the
 * official OpenAPI): int32/int64, byte, date-time, quantity. The TypeScript declarations say only
 * "number" or "string", so each such leaf is asked of the kind's validator with a probe value
 * placed at that member, and takes the integer type and format the validator demands.
 */
import type { KindValidator } from './kube-models.js';
import { definitionName } from './definition-ref.js';
import { isPlainObject, type JsonObject, toPointer } from '../util/json.js';

type Schema = JsonObject;

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
export function addValidatorConstraints(kind: string, definitions: Record<string, Schema>, validate: KindValidator): void {
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
    if (!Array.isArray(schema[union])) continue;
    for (const part of schema[union] as Schema[]) if (visit(part, steps)) visitMembers(part, steps, visit);
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
