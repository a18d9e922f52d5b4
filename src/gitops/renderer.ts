/**
 * What renders a checked request file: the bundles of a folder (bundle-renderer.ts) or a facetform
 * server (server-renderer.ts). Both answer alike, with pointers into the request file, so the
 * commands around them do not care which one ran.
 */
import type { Problem } from '../request/problems.js';
import type { RequestFile } from '../request-file/request-file.js';
import { toPointer, type JsonObject } from '../util/json.js';

export interface Rendered {
  /** In the order the exec API answers them; empty when problems is not. */
  manifests: JsonObject[];
  /** The request's problems, pointers into the request file (/spec/values/…); the first ones when `more` counts others. */
  problems: Problem[];
  more: number;
  /** Unknown fields and unread values entries: the manifests render all the same. */
  warnings: Problem[];
}

export interface Renderer {
  render(request: RequestFile, options: { strict: boolean }): Promise<Rendered>;
}

/** A request file's pointer for one of its body's: the body is the file's spec. */
export const inSpec = (problem: Problem): Problem => ({ pointer: `/spec${problem.pointer}`, detail: problem.detail });

export const failed = (problems: Problem[], more = 0): Rendered => ({ manifests: [], problems, more, warnings: [] });

/** What the exec code says of unknown fields and unread values entries, as warnings in a request file. */
export function warningsOf(unknownMembers: string[], unusedValues: string[] = []): Problem[] {
  return [
    ...unknownMembers.map((pointer) => inSpec({ pointer, detail: 'is not a known field; it is not rendered' })),
    ...unusedValues.map((id) => ({ pointer: toPointer(['spec', 'values', id]), detail: `values entry "${id}" is not read by any resource` })),
  ];
}
