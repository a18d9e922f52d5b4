/**
 * Which documents are facetform requests, and their check against the request file schema
 * (src/request-file): the wrapper only; the spec's body is judged by the exec code that renders it.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Problem } from '../render/render-error.js';
import { BATCH_REQUEST_KIND, REQUEST_FILE_API_VERSION, REQUEST_KIND, requestFileSchema, type RequestFile } from '../request-file/request-file.js';
import { problemsOf } from '../schema/input-validator.js';
import { isPlainObject, toPointer } from '../util/json.js';

const KINDS = [REQUEST_KIND, BATCH_REQUEST_KIND] as const;
type RequestKind = (typeof KINDS)[number];
/** The API group of request files: a file that never names it holds none. */
export const GROUP = REQUEST_FILE_API_VERSION.split('/')[0]!;

/**
 * A document of group facetform.dev and kind Request or BatchRequest, whatever its version: one of
 * another version is a request this release cannot read, an error rather than a resource to pass on.
 */
export function isRequestDocument(document: unknown): document is Record<string, unknown> & { kind: RequestKind } {
  return (
    isPlainObject(document) &&
    typeof document.apiVersion === 'string' &&
    document.apiVersion.split('/')[0] === GROUP &&
    (KINDS as readonly unknown[]).includes(document.kind)
  );
}

let validators: Map<RequestKind, ValidateFunction> | undefined;

function validatorOf(kind: RequestKind): ValidateFunction {
  if (validators === undefined) {
    const ajv = new Ajv({ allErrors: true, strict: false, ownProperties: true, verbose: true });
    validators = new Map(KINDS.map((each) => [each, ajv.compile(requestFileSchema(each))]));
  }
  return validators.get(kind)!;
}

/** ajv's words for a member too many or a wrong constant, said where and how to fix it. */
function ownProblem(error: ErrorObject): Problem | undefined {
  if (error.keyword === 'additionalProperties') {
    const member = String(error.params.additionalProperty);
    const known = Object.keys((error.parentSchema as { properties?: object }).properties ?? {});
    return { pointer: error.instancePath + toPointer([member]), detail: `is not a known field; use ${known.join(', ')}` };
  }
  if (error.keyword === 'const') return { pointer: error.instancePath, detail: `must be ${JSON.stringify(error.params.allowedValue)}` };
  return undefined;
}

/** The request, or what is wrong with its wrapper, each problem with a JSON Pointer into the document. */
export function checkRequestDocument(document: Record<string, unknown> & { kind: RequestKind }): { request: RequestFile } | { problems: Problem[] } {
  const validate = validatorOf(document.kind);
  if (validate(document)) return { request: document as unknown as RequestFile };
  const errors = validate.errors ?? [];
  const problems: Problem[] = [];
  const rest: ErrorObject[] = [];
  for (const error of errors) {
    const own = ownProblem(error);
    if (own !== undefined) problems.push(own);
    else rest.push(error);
  }
  return { problems: [...problems, ...problemsOf(rest, '')] };
}
