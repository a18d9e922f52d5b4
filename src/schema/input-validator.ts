/**
 * Validation of input values against a collection's generated schema: compiled once with ajv
 * (`allErrors`), run per request. Reports every violation as a JSON Pointer into the request body,
 * and every member the schema does not know.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { kubernetesFormats, LARGEST_EXACT_INTEGER } from '../kubernetes/kube-formats.js';
import { type Problem, shownPointer } from '../request/problems.js';
import { appendErrorsInPlace } from '../kubernetes/append-errors.js';
import { goRegExpEngine } from './go-regexp.js';
import type { Schema } from '../kubernetes/kind-schema.js';
import { OptionalNulls } from './optional-nulls.js';
import { SchemaDefaults } from './structural-defaults.js';
import { MemberWalker } from './unknown-members.js';
import { escapePointerSegment } from '../util/json.js';

let shared: Ajv | undefined;
let checkAgainstMetaSchema = true;
function ajv(): Ajv {
  if (shared === undefined) {
    // strict: false because generated Kubernetes schemas carry annotations ajv does not know.
    shared = new Ajv({
      allErrors: true,
      strict: false,
      validateSchema: checkAgainstMetaSchema,
      allowUnionTypes: true,
      validateFormats: true,
      ownProperties: true,
      // Patterns run as the API server runs them: Go's regexp, in linear time (go-regexp.ts).
      code: { process: appendErrorsInPlace, regExp: goRegExpEngine },
    });
    // The formats the Kubernetes validators use (byte, quantity, int32, date-time …), with Go's
    // rules, so that input schemas and manifest checks judge a value alike.
    for (const [name, format] of Object.entries(kubernetesFormats)) shared.addFormat(name, format as never);
  }
  return shared;
}

/**
 * Compiled validators by schema text, for a process that compiles the same schemas again and again
 * (`facetform dev` rebuilds on every save): a schema compiled before is not compiled again. Off
 * unless switched on; at most `size` kept, the least recently used dropped (from ajv too).
 */
class CompiledBySchemaText {
  private readonly entries = new Map<string, { schema: Schema; validate: ValidateFunction }>();

  constructor(private readonly size: number) {}

  compile(schema: Schema): ValidateFunction {
    const text = JSON.stringify(schema);
    const found = this.entries.get(text);
    if (found !== undefined) {
      this.entries.delete(text);
      this.entries.set(text, found);
      return found.validate;
    }
    const validate = ajv().compile(schema);
    this.entries.set(text, { schema, validate });
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.size) break;
      this.entries.delete(oldest);
      ajv().removeSchema(entry.schema);
    }
    return validate;
  }
}

/**
 * From now on, schemas are compiled without first being checked against JSON Schema's meta-schema:
 * for a server, whose schemas come from bundles that the build checked and their digest seals.
 * Compiling the meta-schema is most of the first compile (about 90 ms of a server's start-up).
 */
export function skipMetaSchemaCheck(): void {
  checkAgainstMetaSchema = false;
  if (shared !== undefined) shared.opts.validateSchema = false;
}

let compiled: CompiledBySchemaText | undefined;

/** Keeps up to `size` compiled validators by schema text from now on, for every InputValidator of this process. */
export function keepCompiledValidators(size = 64): void {
  compiled ??= new CompiledBySchemaText(size);
}

export interface InputCheck {
  /** As ajv finds them: one pointer may come twice (execute keeps one per pointer). */
  problems: Problem[];
  /** Pointers of members the schema does not know. */
  unknown: string[];
}

export class InputValidator {
  // Compiled on first use: a server with a thousand collections starts without compiling them all.
  private validateFn: ValidateFunction | undefined;
  /** A CRD's defaults, filled in before the schema judges a value, as the API server does; null when it has none. */
  private defaults: SchemaDefaults | undefined | null = null;
  private readonly walker: MemberWalker;
  /** Null for an optional member is unset (CONTRACT §5): judged as if unwritten. */
  private readonly nulls: OptionalNulls;

  constructor(readonly schema: Schema) {
    const definitions = (schema.definitions as Record<string, Schema>) ?? {};
    this.walker = new MemberWalker([schema], definitions);
    this.nulls = OptionalNulls.compile(schema, definitions);
  }

  /** Compiles now rather than on the first check, e.g. to fail early on a broken schema. */
  compile(): ValidateFunction {
    this.validateFn ??= compiled === undefined ? ajv().compile(this.schema) : compiled.compile(this.schema);
    return this.validateFn;
  }

  /** Checks one input object; `pointer` is where it sits in the request body, e.g. `/values/web`. */
  check(value: unknown, pointer: string): InputCheck {
    const validate = this.compile();
    if (this.defaults === null)
      this.defaults = SchemaDefaults.compile(this.schema, (this.schema.definitions as Record<string, Schema>) ?? {});
    const unset = this.nulls.apply(value);
    const problems = validate(this.defaults === undefined ? unset : this.defaults.apply(unset))
      ? []
      : problemsOf(validate.errors ?? [], pointer);
    const unknown: string[] = [];
    this.walker.walk(value, pointer, unknown);
    return { problems, unknown };
  }
}

/** Turns ajv errors into problems, with `anyOf` noise folded; ajv may say one thing twice (distinctProblems). */
export function problemsOf(errors: ErrorObject[], prefix: string): Problem[] {
  // A union's branch errors sit at its path or below, so each error looks only at the unions above
  // it, found once per path: a body with thousands of failing unions costs linear time.
  const isUnion = (error: ErrorObject) => error.keyword === 'anyOf' || error.keyword === 'oneOf';
  const unionsAt = new Map<string, ErrorObject[]>();
  for (const error of errors) if (isUnion(error)) groupInto(unionsAt, error.instancePath, error);
  const atPath = new Map<string, ErrorObject[]>();
  if (unionsAt.size > 0) for (const error of errors) if (unionsAt.has(error.instancePath)) groupInto(atPath, error.instancePath, error);
  // The unions at a path and above it, as a chain to the root: made once per path, shared below it.
  type Unions = { here: ErrorObject[]; above: Unions | undefined } | undefined;
  const unionsAboveCache = new Map<string, Unions>();
  const unionsAbove = (path: string): Unions => {
    if (unionsAboveCache.has(path)) return unionsAboveCache.get(path);
    const above = path === '' ? undefined : unionsAbove(path.slice(0, path.lastIndexOf('/')));
    const here = unionsAt.get(path);
    const found = here === undefined ? above : { here, above };
    unionsAboveCache.set(path, found);
    return found;
  };
  const inBranch = (error: ErrorObject): boolean => {
    for (let unions = unionsAbove(error.instancePath); unions !== undefined; unions = unions.above) {
      if (unions.here.some((union) => error.schemaPath !== union.schemaPath && error.schemaPath.startsWith(union.schemaPath + '/')))
        return true;
    }
    return false;
  };
  const problems: Problem[] = [];
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    if (unionsAt.size > 0 && inBranch(error)) continue;
    let pointer = prefix + error.instancePath;
    let detail: string;
    switch (error.keyword) {
      case 'required':
        pointer += '/' + escapePointerSegment(String(error.params.missingProperty));
        detail = 'is required';
        break;
      case 'enum':
        detail = `must be one of ${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
        break;
      case 'anyOf':
      case 'oneOf':
        detail = `must be ${branchShapes(atPath.get(error.instancePath)!, error.schemaPath) ?? 'one of the allowed shapes'}`;
        break;
      case 'type':
        detail = typeDetail(String(error.params.type));
        break;
      case 'format':
        detail = `must be ${formatShape(String(error.params.format))}`;
        break;
      default:
        detail = error.message ?? 'is invalid';
    }
    problems.push({ pointer: shownPointer(pointer), detail });
  }
  return problems;
}

/** `must be integer or string` for ajv's `integer,string`; kept, as a body may fail a type a hundred thousand times. */
const typeDetails = new Map<string, string>();
function typeDetail(types: string): string {
  let detail = typeDetails.get(types);
  if (detail === undefined) typeDetails.set(types, (detail = `must be ${types.split(',').join(' or ')}`));
  return detail;
}

/** What each Kubernetes format asks of a value, said so that a caller can fix it. */
const FORMAT_SHAPES: Record<string, string> = {
  byte: 'base64-encoded',
  int32: 'an integer from -2147483648 to 2147483647 (int32)',
  int64: `an integer from -${LARGEST_EXACT_INTEGER} to ${LARGEST_EXACT_INTEGER}: a larger integer does not survive JSON parsing exactly`,
  quantity: 'a Kubernetes quantity such as 10Gi, 500m or 1.5',
  'date-time': 'an RFC 3339 date-time such as 2026-01-02T15:04:05Z',
};

export const formatShape = (format: string): string => FORMAT_SHAPES[format] ?? `a valid ${format}`;

/**
 * What the branches of a union accept, from the errors at the union's own path: each branch's type,
 * or its format where the type was right (`integer or string`, `number or a Kubernetes quantity …`).
 */
function branchShapes(errors: ErrorObject[], schemaPath: string): string | undefined {
  const byBranch = new Map<string, { type?: string; format?: string }>();
  for (const error of errors) {
    if (!error.schemaPath.startsWith(schemaPath + '/')) continue;
    const branch = error.schemaPath.slice(schemaPath.length + 1).split('/')[0]!;
    const shape = byBranch.get(branch) ?? {};
    if (error.keyword === 'type') shape.type = String(error.params.type).split(',').join(' or ');
    else if (error.keyword === 'format') shape.format ??= formatShape(String(error.params.format));
    byBranch.set(branch, shape);
  }
  const shapes = [...byBranch.values()].map((shape) => shape.type ?? shape.format).filter((shape): shape is string => shape !== undefined);
  return shapes.length > 0 ? [...new Set(shapes)].join(' or ') : undefined;
}

export function groupInto<K, V>(groups: Map<K, V[]>, key: K, value: V): void {
  const group = groups.get(key);
  if (group === undefined) groups.set(key, [value]);
  else group.push(value);
}
