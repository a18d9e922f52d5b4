/**
 * A problem's JSON Pointer as a KRM result's `field.path` (KRM Functions Specification): member
 * names joined by dots, array indexes in brackets, a name that is not a plain word quoted in
 * brackets: `spec.values.web.spec.ports[0].port`, `metadata.labels["app.kubernetes.io/name"]`.
 */
import { fromPointer } from '../util/json.js';

const PLAIN_NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;
const INDEX = /^(0|[1-9][0-9]*)$/;

/** `document` says which number segments index arrays; where it has nothing, a number is taken for an index. */
export function fieldPathOf(pointer: string, document?: unknown): string {
  let path = '';
  let node = document;
  for (const segment of fromPointer(pointer)) {
    const isIndex = INDEX.test(segment) && (node === undefined || Array.isArray(node));
    if (isIndex) path += `[${segment}]`;
    else if (PLAIN_NAME.test(segment)) path += (path === '' ? '' : '.') + segment;
    else path += `[${JSON.stringify(segment)}]`;
    node = typeof node === 'object' && node !== null && Object.hasOwn(node, segment) ? (node as Record<string, unknown>)[segment] : undefined;
  }
  return path;
}
