/**
 * The JSON request body of an exec route, with the limits of CONTRACT §7: not application/json 415,
 * over 1 MiB 413, malformed JSON or nesting deeper than 64 levels 400. Nesting is measured on the
 * raw text before parsing, so no deep structure is ever built. Numbers too large for a double and
 * lone UTF-16 surrogates (no answer could carry them) are 400 naming their JSON Pointer.
 * The bytes of a body count against the process's in-flight bytes while it is read (503 when there
 * is no room).
 */
import type { Context } from 'koa';
import { isUtf8 } from 'node:buffer';
import { parse as parseContentType } from 'content-type';
import getRawBody from 'raw-body';
import typeIs from 'type-is';
import { describeJsonSyntaxError, jsonSyntaxError } from '../../util/json-syntax.js';
import { findUnrepresentable, mayHoldUnrepresentable } from '../../util/unrepresentable.js';
import type { InflightBytes } from '../inflight-bytes.js';
import { HttpProblem, serverBusy } from '../problem.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;
export const MAX_NESTING = 64;

/** Whether the text has more than `limit` brackets at all: if not, it cannot nest deeper. Native indexOf is fast. */
function bracketsExceed(text: string, limit: number): boolean {
  let count = 0;
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1)) if (++count > limit) return true;
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1)) if (++count > limit) return true;
  return false;
}

/** Whether arrays and objects in JSON text nest deeper than `limit`. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  if (!bracketsExceed(text, limit)) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}

/** The media type must be JSON, in UTF-8 (RFC 8259), not compressed. */
function checkContentType(contentType: string, contentEncoding: string): void {
  const unsupported = (detail: string) => new HttpProblem('unsupported-media-type', detail, {}, { Accept: 'application/json' });
  if (contentType !== 'application/json') {
    if (contentType === '' || typeIs.is(contentType, ['application/json']) === false)
      throw unsupported(`the body must be application/json, not ${contentType || 'without a Content-Type'}`);
    const charset = parseContentType(contentType).parameters.charset?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw unsupported(`JSON must be UTF-8, not charset=${charset}`);
  }
  if (contentEncoding !== '' && contentEncoding.toLowerCase() !== 'identity')
    throw unsupported(`Content-Encoding ${contentEncoding} is not supported; send the body uncompressed`);
}

/** The request's JSON body, read and parsed within the limits; the caller holds it only while it answers. */
export async function readJsonBody(ctx: Context, inflight: InflightBytes): Promise<unknown> {
  const headers = ctx.req.headers;
  checkContentType(headers['content-type'] ?? '', headers['content-encoding'] ?? '');
  // Without a length, or with a length over the limit (a 413 before a byte is read), the most a body may take.
  const declared = Number(headers['content-length'] ?? BODY_LIMIT_BYTES);
  const reserved = declared >= 0 && declared <= BODY_LIMIT_BYTES ? declared : BODY_LIMIT_BYTES;
  const owner = (ctx.state.keyName as string | undefined) ?? '';
  if (!inflight.reserve(owner, reserved)) throw serverBusy(`a body of ${reserved} bytes`);
  try {
    return parse(await getRawBody(ctx.req, { limit: BODY_LIMIT_BYTES, length: headers['content-length'] }));
  } finally {
    inflight.release(owner, reserved);
  }
}

function parse(raw: Buffer): unknown {
  if (!isUtf8(raw)) throw new HttpProblem('bad-request', 'the body is not valid UTF-8');
  // A byte order mark is not part of the JSON text (RFC 8259 §8.1).
  const text = raw.toString('utf8', raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? 3 : 0);
  if (nestsDeeperThan(text, MAX_NESTING)) {
    throw new HttpProblem('bad-request', `the JSON body nests deeper than ${MAX_NESTING} levels`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpProblem('bad-request', `the body is not valid JSON${where(text)}`, {}, {}, 'Malformed JSON');
  }
  if (mayHoldUnrepresentable(text)) {
    const found = findUnrepresentable(body, text);
    if (found !== undefined) throw new HttpProblem('bad-request', found.detail, { errors: [found] });
  }
  return body;
}

/** What is wrong and where, without quoting the body: it may hold secrets. */
function where(text: string): string {
  if (text.trim() === '') return ': the body is empty';
  const found = jsonSyntaxError(text);
  return found === undefined ? '' : ` ${describeJsonSyntaxError(found)}`;
}
