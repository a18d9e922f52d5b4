/**
 * The vectors of Kubernetes' CEL libraries (test/vectors/cel-kubernetes-libraries.jsonl): an
 * expression, maybe `self` and its schema, and what Kubernetes' own CEL environment for CRD rules
 * (test/oracle/celeval) made of it. And the same run here, encoded alike, for the test to compare.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CelValue } from '@bufbuild/cel';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import { fromBytes } from '../../src/apiserver/golang/url.js';
import { type Addr, addrString } from '../../src/apiserver/golang/netip.js';
import { type Prefix, prefixString } from '../../src/apiserver/golang/netip-prefix.js';
import { quantityString } from '../../src/apiserver/apimachinery/quantity-print.js';
import type { Quantity } from '../../src/apiserver/apimachinery/quantity.js';
import { compileExpression } from '../../src/crd/cel-expression.js';
import { celLibrary } from '../../src/crd/cel-library.js';
import { CelValues } from '../../src/crd/cel-value.js';
import { ROOT } from './repos.js';

export const CEL_VECTORS = path.join(ROOT, 'test/vectors/cel-kubernetes-libraries.jsonl');

export interface CelCase {
  expr: string;
  self?: unknown;
  /** The OpenAPI schema of self (required with self). */
  schema?: Record<string, unknown>;
}

/** What an expression gives: a compile error, an evaluation error, or a value (encoded as celeval encodes it). */
export type CelOutcome = { compileError: string } | { error: string } | { value: unknown } | { skip: string };

/** A case of the vectors: which library it tests (ip, cidr, url …), the expression, maybe self. */
export type LibraryCase = CelCase & { library: string };

/** A CEL string literal of `text`. */
export const q = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
/** Each template applied to each input (as a string literal). */
export const each = (library: string, inputs: string[], templates: Array<(x: string) => string>): LibraryCase[] =>
  inputs.flatMap((input) => templates.map((template) => ({ library, expr: template(q(input)) })));
export const exprs = (library: string, list: string[]): LibraryCase[] => list.map((expr) => ({ library, expr }));

export interface CelVector extends CelCase {
  /** Which library the case tests (ip, cidr, url …). */
  library: string;
  go: CelOutcome;
}

export function readCelVectors(): CelVector[] {
  return readFileSync(CEL_VECTORS, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CelVector);
}

const held = (message: ReflectMessage): unknown => {
  const symbol = Object.getOwnPropertySymbols(message.message)[0];
  return symbol === undefined ? undefined : (message.message as Record<symbol, unknown>)[symbol];
};

/** A CEL value as celeval's encode writes it: typed JSON. */
export function encode(value: CelValue): unknown {
  const { cel, reflect } = celLibrary();
  switch (typeof value) {
    case 'boolean':
    case 'string':
      return value;
    case 'bigint':
      return { int: String(value) };
    case 'number':
      return { double: Number.isNaN(value) ? 'NaN' : value === Infinity ? '+Inf' : value === -Infinity ? '-Inf' : value };
  }
  if (value === null) return null;
  if (value instanceof Uint8Array) return { bytes: Buffer.from(value).toString('base64') };
  if (cel.isCelUint(value)) return { uint: String(value.value) };
  if (cel.isCelType(value)) return { type: value.name };
  if (cel.isCelList(value)) return [...value].map(encode);
  if (cel.isCelMap(value)) {
    const entries = [...value].map(([key, member]) => [encode(key), encode(member)] as const);
    return { map: entries.sort(([a], [b]) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)) };
  }
  if (reflect.isReflectMessage(value)) {
    const { seconds, nanos } = value.message as unknown as { seconds: bigint; nanos: number };
    const inner = held(value);
    switch (value.desc.typeName) {
      case 'google.protobuf.Duration':
        return { duration: String(seconds * 1_000_000_000n + BigInt(nanos)) };
      case 'google.protobuf.Timestamp':
        return { timestamp: `${seconds}.${String(nanos).padStart(9, '0')}` };
      case 'net.IP':
        return { 'net.IP': addrString(inner as Addr) };
      case 'net.CIDR':
        return { 'net.CIDR': prefixString(inner as Prefix) };
      case 'kubernetes.URL':
        return { 'kubernetes.URL': fromBytes((value.message as unknown as { key: string }).key) };
      case 'kubernetes.Quantity':
        return { 'kubernetes.Quantity': quantityString(inner as Quantity) };
      case 'kubernetes.NamedFormat':
        return { 'kubernetes.NamedFormat': (inner as { name: string }).name };
      case 'optional_type': {
        const some = inner as { value: CelValue } | undefined;
        return { optional: some === undefined ? [] : [encode(some.value)] };
      }
    }
  }
  return { unknown: String(value) };
}

/** The case run here as a CRD rule's expression is: checked and planned as rules are, `self` converted by its schema. */
export function evaluateHere(c: CelCase): CelOutcome {
  const { cel } = celLibrary();
  const schema = c.schema ?? {};
  const compiled = compileExpression(c.expr, schema);
  if ('skip' in compiled) return { skip: compiled.skip };
  if ('error' in compiled) return { compileError: compiled.error };
  let result: unknown;
  try {
    result = compiled.program(c.schema === undefined ? ({} as never) : { self: new CelValues().of(c.self ?? null, schema) });
  } catch (error) {
    return { error: (error as Error).message };
  }
  if (cel.isCelError(result)) return { error: result.message };
  return { value: encode(result as CelValue) };
}
