/**
 * What CEL runs here: @bufbuild/cel's environment with its strings extension, and what of
 * Kubernetes' own CEL libraries it lacks, so that a rule calling one is skipped, never misjudged.
 */
import { celLibrary } from './cel-library.js';

/**
 * Kubernetes' CEL libraries beyond what @bufbuild/cel has (lists, regex, urls, quantity, ip, cidr,
 * format, semver, sets, math, encoders, two-variable comprehensions): a rule calling one is valid in
 * a cluster but cannot be evaluated here.
 */
export const KUBERNETES_LIBRARY = new Set([
  'isSorted',
  'sum',
  'min',
  'max',
  'find',
  'findAll',
  'reverse',
  'url',
  'isURL',
  'getScheme',
  'getHost',
  'getHostname',
  'getPort',
  'getEscapedPath',
  'getQuery',
  'quantity',
  'isQuantity',
  'sign',
  'isGreaterThan',
  'isLessThan',
  'compareTo',
  'add',
  'sub',
  'asInteger',
  'asApproximateFloat',
  'isInteger',
  'ip',
  'isIP',
  'ip.isCanonical',
  'family',
  'isUnspecified',
  'isLoopback',
  'isLinkLocalMulticast',
  'isLinkLocalUnicast',
  'isGlobalUnicast',
  'cidr',
  'isCIDR',
  'containsIP',
  'containsCIDR',
  'masked',
  'prefixLength',
  'format.named',
  'format.dns1123Label',
  'format.dns1123Subdomain',
  'format.dns1035Label',
  'format.qualifiedName',
  'format.dns1123LabelPrefix',
  'format.dns1123SubdomainPrefix',
  'format.dns1035LabelPrefix',
  'format.labelValue',
  'format.uri',
  'format.uuid',
  'format.byte',
  'format.date',
  'format.datetime',
  'validate',
  'semver',
  'isSemver',
  'major',
  'minor',
  'patch',
  'sets.contains',
  'sets.equivalent',
  'sets.intersects',
  'math.greatest',
  'math.least',
  'math.ceil',
  'math.floor',
  'math.round',
  'math.trunc',
  'math.abs',
  'math.sign',
  'math.isInf',
  'math.isNaN',
  'math.isFinite',
  'math.bitAnd',
  'math.bitOr',
  'math.bitXor',
  'math.bitNot',
  'math.bitShiftLeft',
  'math.bitShiftRight',
  'math.sqrt',
  'base64.encode',
  'base64.decode',
  'transformList',
  'transformMap',
  'transformMapEntry',
  'getField',
]);
/** Names @bufbuild/cel has for strings only, which Kubernetes' lists library also gives lists. */
export const LIST_OVERLOADS = new Set(['indexOf', 'lastIndexOf']);
/** Calls the planner itself handles (operators and macros' helpers), not found among the functions. */
const OPERATORS = new Set(['_&&_', '_||_', '_?_:_', '_[_]', '_[?_]', '_?._', '@not_strictly_false', '__not_strictly_false__']);
/** Identifiers that name types (`type(x) == string`). */
export const TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);

/** Whether a function or operator of that name runs here. */
export const knownFunction = (name: string): boolean => celLibrary().env.funcs.find(name) !== undefined || OPERATORS.has(name);

/** Why an expression calling these of Kubernetes' functions cannot run here. */
export const libraryReason = (library: ReadonlySet<string>): string =>
  `uses ${[...library].sort().join(', ')} from Kubernetes' CEL libraries, which @bufbuild/cel does not have`;

/** Whether an evaluation error is @bufbuild/cel missing a list overload Kubernetes has: not judged here. */
export const isListOverloadError = (detail: string): boolean =>
  [...LIST_OVERLOADS].some((name) => detail.includes(`overload for '${name}'`));
