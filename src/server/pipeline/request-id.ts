/** X-Request-Id: taken from the caller when it is a sensible token, made otherwise, and echoed. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a caller's id may be: also what lets the access log write it without escaping. */
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id, set on the answer. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}
