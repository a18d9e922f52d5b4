/**
 * Kubernetes' estimates of calls (apiserver pkg/cel/library/cost.go, EstimateCallCost): its
 * libraries' functions (lists, regex, url, quantity, ip, cidr, format, semver) and the strings
 * extension's, priced by the sizes of their target and arguments; equality of its own types.
 */
import type { AstNode, CallEstimate, Sizing } from './cel-cost-estimator.js';
import {
  add,
  byFactor,
  MAX_UINT64,
  multiply,
  ONE,
  type Range,
  REGEX_LENGTH_FACTOR,
  STRING_TRAVERSAL_FACTOR as TRAVERSAL,
  toUint64,
  UNKNOWN,
  wrapU,
} from './cel-cost-range.js';
import { type CelType, sameType } from './cel-cost-types.js';
import type { Expr } from './cel-type-check.js';

/** The Format type's most, and its longest name's regex (apiserver pkg/cel/limits.go). */
const MAX_FORMAT_SIZE = 64n;
const MAX_NAME_FORMAT_REGEX_SIZE = 128;

const elementType = (type: CelType): CelType | undefined => (type.kind === 'list' ? type.elem : type.kind === 'map' ? type.key : undefined);

/** Kubernetes' functions of nominal cost, estimated and run: accessors of IPs, CIDRs, URLs, quantities and semvers, format.named. */
export const NOMINAL = new Set([
  'masked',
  'prefixLength',
  'family',
  'isUnspecified',
  'isLoopback',
  'isLinkLocalMulticast',
  'isLinkLocalUnicast',
  'isGlobalUnicast',
  'format.named',
  'sign',
  'asInteger',
  'isInteger',
  'asApproximateFloat',
  'isGreaterThan',
  'isLessThan',
  'compareTo',
  'add',
  'sub',
  'major',
  'minor',
  'patch',
  'getScheme',
  'getHostname',
  'getHost',
  'getPort',
  'getEscapedPath',
  'getQuery',
]);

/** Kubernetes' functions priced by one traversal of the string they parse. */
export const PARSES = new Set(['cidr', 'isIP', 'isCIDR', 'quantity', 'isQuantity', 'semver', 'isSemver']);
/** The lists library's functions (and indexOf and lastIndexOf of strings), priced by a walk of their target. */
export const TRAVERSES = new Set(['isSorted', 'sum', 'max', 'min', 'indexOf', 'lastIndexOf']);

/** Kubernetes' CostEstimator.EstimateCallCost; undefined where it has no estimate. */
export function kubernetesCost(
  s: Sizing,
  fn: string,
  overload: string,
  target: AstNode | undefined,
  args: AstNode[],
): CallEstimate | undefined {
  const size = (node: AstNode | undefined): Range => (node === undefined ? UNKNOWN : (node.computed ?? s.estimateSize(node) ?? UNKNOWN));
  const traversal = (node: AstNode | undefined) => byFactor(size(node), TRAVERSAL);
  const nominal = { cost: ONE };
  if (NOMINAL.has(fn)) return nominal;
  if (PARSES.has(fn)) return { cost: traversal(args[0]) };
  if (TRAVERSES.has(fn)) return elementsCost(target, size);
  switch (fn) {
    case 'url':
      return args.length === 1 ? { cost: traversal(args[0]), resultSize: size(args[0]) } : undefined;
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
      return { cost: traversal(target), resultSize: size(target) };
    case 'replace':
      return args.length >= 2 ? replaceCost(size(target), size(args[0]), size(args[1])) : undefined;
    case 'split': {
      const limit = args.length > 1 ? literalInt(args[1]!.expr) : undefined;
      return {
        cost: byFactor(size(target), 2 * TRAVERSAL),
        resultSize: { min: 0n, max: limit === undefined ? size(target).max : wrapU(limit) },
      };
    }
    case 'join': {
      const elem = target === undefined ? undefined : elementType(target.type);
      const count = size(target);
      let result: Range = { min: 0n, max: 0n };
      if (elem !== undefined)
        result = multiply(
          count,
          size({ path: target!.path?.length ? [...target!.path, '@items'] : undefined, type: elem, expr: undefined, computed: undefined }),
        );
      if (args.length > 0) {
        const separators = { min: count.min > 0n ? count.min - 1n : 0n, max: count.max > 0n ? count.max - 1n : 0n };
        result = add(result, multiply(size(args[0]), separators));
      }
      return { cost: byFactor(result, TRAVERSAL), resultSize: result };
    }
    case 'find':
    case 'findAll':
      if (args.length < 1) return undefined;
      return {
        cost: multiply(byFactor(add(size(target), ONE), TRAVERSAL), byFactor(size(args[0]), REGEX_LENGTH_FACTOR)),
        resultSize: { min: 0n, max: size(target).max },
      };
    case 'ip':
      if (args.length >= 1) return overload === 'cidr_ip' ? nominal : { cost: traversal(args[0]) };
      return nominal;
    case 'ip.isCanonical':
      return args.length >= 1 ? { cost: byFactor(size(args[0]), 2 * TRAVERSAL) } : undefined;
    case 'containsIP':
    case 'containsCIDR': {
      if (args.length < 1) return undefined;
      const ip = { min: 4n, max: 16n }; // IPv4 or IPv6 bytes
      let cost = byFactor(add(ip, ip), TRAVERSAL);
      if (fn === 'containsCIDR') cost = add(add(cost, byFactor(ip, TRAVERSAL)), ONE);
      if (overload === `cidr_${fn === 'containsIP' ? 'contains_ip' : 'contains_cidr'}_string`) cost = add(cost, traversal(args[0]));
      return { cost };
    }
    case 'validate':
      return { cost: byFactor(traversal(args[0]), MAX_NAME_FORMAT_REGEX_SIZE * REGEX_LENGTH_FACTOR) };
    case '_==_':
      return args.length === 2 ? kubernetesEquality(args[0]!, args[1]!) : undefined;
  }
  return undefined;
}

/** Equality of Kubernetes' own types is O(1), but for formats and URLs. */
function kubernetesEquality(lhs: AstNode, rhs: AstNode): CallEstimate | undefined {
  const type = lhs.type;
  if (!sameType(type, rhs.type)) return undefined;
  if (type.kind === 'opaque' && (type.name === 'net.IP' || type.name === 'net.CIDR')) return { cost: ONE };
  if (type.kind !== 'object') return undefined;
  switch (type.name) {
    case 'kubernetes.Quantity':
    case 'kubernetes.Semver':
      return { cost: ONE };
    case 'kubernetes.NamedFormat':
      return { cost: byFactor({ min: 1n, max: MAX_FORMAT_SIZE }, TRAVERSAL) };
    case 'kubernetes.URL': {
      // cost.go reads the right-hand side twice.
      const size = rhs.computed ?? ONE;
      return { cost: byFactor({ min: 1n, max: size.max }, TRAVERSAL) };
    }
  }
  return undefined;
}

/** The result of replace: as many replacements as the smallest match fits, each the longest replacement. */
function replaceCost(size: Range, from: Range, to: Range): CallEstimate {
  const count = { min: 0n, max: 0n };
  const retained = { min: 0n, max: 0n };
  if (from.min === 0n) {
    count.max = size.max < MAX_UINT64 ? size.max + 1n : size.max;
    retained.max = size.max;
  } else if (to.max <= from.min) retained.max = size.max;
  else count.max = toUint64(Math.ceil(Number(size.max) / Number(from.min)));
  if (from.max === 0n) {
    count.min = size.min < MAX_UINT64 ? size.min + 1n : size.min;
    retained.min = size.min;
  } else if (from.max <= to.min) retained.min = size.min;
  else count.min = toUint64(Math.ceil(Number(size.min) / Number(from.max)));
  return { cost: byFactor(size, 2 * TRAVERSAL), resultSize: add(multiply(count, to), retained) };
}

function literalInt(expr: Expr | undefined): bigint | undefined {
  if (expr?.exprKind.case !== 'constExpr') return undefined;
  const constant = (expr.exprKind.value as { constantKind?: { case?: string; value?: unknown } }).constantKind;
  return constant?.case === 'int64Value' && typeof constant.value === 'bigint' ? constant.value : undefined;
}

/** A list's elements compared once each, a string's element walked too; a string target walked once. */
function elementsCost(target: AstNode | undefined, size: (node: AstNode | undefined) => Range): CallEstimate {
  const traversal = (node: AstNode | undefined) => byFactor(size(node), TRAVERSAL);
  const elem = target === undefined ? undefined : elementType(target.type);
  if (elem === undefined) return { cost: traversal(target) };
  const node: AstNode = {
    path: target!.path?.length ? [...target!.path, '@items'] : undefined,
    type: elem,
    expr: undefined,
    computed: undefined,
  };
  const sized = elem.kind === 'string' || elem.kind === 'bytes';
  return { cost: multiply(size(target), sized ? add(ONE, traversal(node)) : ONE) };
}
