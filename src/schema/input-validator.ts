/**
 * Validation of input values against a collection's generated schema: compiled once with ajv
 * (`allErrors`), run per request. Reports every violation as a JSON Pointer into the request body,
 * and every member the schema does not know.
 */
import { formats as kubernetesFormats } from '@kubernetes-models/validate';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Problem } from '../render/render-error.js';
import type { Schema } from './kube-types.js';
import { MemberWalker } from './unknown-members.js';

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext resolution.
export const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

/** JSON numbers are doubles: an integer beyond this does not arrive as the caller wrote it. */
export const LARGEST_EXACT_INTEGER = Number.MAX_SAFE_INTEGER;

let shared: Ajv | undefined;
function ajv(): Ajv {
  if (shared === undefined) {
    // strict: false because generated Kubernetes schemas carry annotations ajv does not know.
    shared = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true, validateFormats: true, ownProperties: true });
    // The formats the Kubernetes validators use (byte, quantity, int32, date-time …), so that input
    // schemas and manifest checks judge a value alike; int64 also refuses what JSON cannot carry.
    for (const [name, format] of Object.entries(kubernetesFormats)) shared.addFormat(name, format as never);
    shared.addFormat('int64', { type: 'number', validate: (value: number) => Number.isSafeInteger(value) });
  }
  return shared;
}

export interface InputCheck {
  problems: Problem[];
  /** Pointers of members the schema does not know. */
  unknown: string[];
}

export class InputValidator {
  // Compiled on first use: a server with a thousand collections starts without compiling them all.
  private validateFn: ValidateFunction | undefined;
  private readonly walker: MemberWalker;

  constructor(readonly schema: Schema) {
    this.walker = new MemberWalker([schema], (schema.definitions as Record<string, Schema>) ?? {});
  }

  /** Compiles now rather than on the first check, e.g. to fail early on a broken schema. */
  compile(): ValidateFunction {
    this.validateFn ??= ajv().compile(this.schema);
    return this.validateFn;
  }

  /** Checks one input object; `pointer` is where it sits in the request body, e.g. `/values/web`. */
  check(value: unknown, pointer: string): InputCheck {
    const validate = this.compile();
    const problems = validate(value) ? [] : problemsOf(validate.errors ?? [], pointer);
    const unknown: string[] = [];
    this.walker.walk(value, pointer, unknown);
    return { problems, unknown };
  }
}

/** Turns ajv errors into problems, one per pointer and message, with `anyOf` noise folded. */
export function problemsOf(errors: ErrorObject[], prefix: string): Problem[] {
  const anyOfPaths = errors.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf').map((error) => error.schemaPath);
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    const inBranch = anyOfPaths.some((path) => error.schemaPath !== path && error.schemaPath.startsWith(path + '/'));
    if (inBranch) continue;
    let pointer = prefix + error.instancePath;
    let detail: string;
    switch (error.keyword) {
      case 'required':
        pointer += '/' + escape(String(error.params.missingProperty));
        detail = 'is required';
        break;
      case 'enum':
        detail = `must be one of ${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
        break;
      case 'anyOf':
      case 'oneOf':
        detail = `must be ${branchShapes(errors, error.schemaPath) ?? 'one of the allowed shapes'}`;
        break;
      case 'type':
        detail = `must be ${String(error.params.type).split(',').join(' or ')}`;
        break;
      case 'format':
        detail = `must be ${formatShape(String(error.params.format))}`;
        break;
      default:
        detail = error.message ?? 'is invalid';
    }
    const key = `${pointer}\u0000${detail}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push({ pointer, detail });
    }
  }
  return problems;
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

/** What the branches of a union accept: each branch's type, or its format where the type was right. */
function branchShapes(errors: ErrorObject[], schemaPath: string): string | undefined {
  const shapes: string[] = [];
  for (const error of errors) {
    if (!error.schemaPath.startsWith(schemaPath + '/')) continue;
    if (error.keyword === 'type') shapes.push(...String(error.params.type).split(','));
    else if (error.keyword === 'format') shapes.push(formatShape(String(error.params.format)));
  }
  return shapes.length > 0 ? [...new Set(shapes)].join(' or ') : undefined;
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
