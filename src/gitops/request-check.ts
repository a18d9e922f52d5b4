/**
 * Which documents are facetform requests, and their check against the request file schema
 * (src/request-file): the wrapper only; the spec's body is judged by the exec code that renders it.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Problem } from '../request/problems.js';
import { BATCH_REQUEST_KIND, REQUEST_FILE_API_VERSION, REQUEST_KIND, requestFileSchema, type RequestFile } from '../request-file/request-file.js';
import { problemsOf } from '../schema/input-validator.js';
import { closestName, didYouMean, editDistance } from '../util/did-you-mean.js';
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

/** Other kinds of the group that are not requests, and may sit beside them. */
const OTHER_KINDS = new Set(['FacetformGenerator']);

/**
 * A document meant as a request that would otherwise pass as some other resource and render
 * nothing: a kind of the group that does not exist (`Requests`), or a request kind under a
 * misspelt group (`facetfrom.dev/v1alpha1`).
 */
export function misnamedRequest(document: unknown): Problem | undefined {
  if (!isPlainObject(document) || typeof document.apiVersion !== 'string' || typeof document.kind !== 'string') return undefined;
  const group = document.apiVersion.split('/')[0]!;
  const kind = document.kind;
  if (group === GROUP) {
    if ((KINDS as readonly string[]).includes(kind) || OTHER_KINDS.has(kind)) return undefined;
    return { pointer: '/kind', detail: `"${kind}" is not a kind of ${GROUP}; a request is ${KINDS.join(' or ')}${didYouMean(closestName(kind, KINDS))}` };
  }
  const requestKind = KINDS.find((each) => each.toLowerCase() === kind.toLowerCase());
  if (requestKind !== undefined && document.apiVersion.includes('/') && editDistance(group, GROUP, 3) <= 2) {
    return { pointer: '/apiVersion', detail: `"${document.apiVersion}" is not a facetform request's apiVersion; use ${REQUEST_FILE_API_VERSION}` };
  }
  return undefined;
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
