/**
 * What CEL runs here: @bufbuild/cel's environment with its strings extension and Kubernetes' CEL
 * libraries (cel-kubernetes/), and what of the CRD environment of Kubernetes 1.33 it still lacks,
 * so that a rule calling that is skipped, never misjudged.
 */
import { celLibrary } from './cel-library.js';

/**
 * Macros of Kubernetes' CRD environment at 1.33 that @bufbuild/cel's parser does not expand, nor
 * its evaluator run (it has one iteration variable): the two-variable comprehensions' transforms
 * and the optional macros. (The two-variable all, exists and existsOne are told by their three
 * arguments, in cel-type-check.ts.) Functions outside that environment are not listed: the API
 * server refuses a rule calling one (semver's, new in 1.33, only for rules stored by a later
 * release; math, base64, cel.bind, strings' reverse not at all), and so does the check here.
 */
export const KUBERNETES_LIBRARY = new Set(['transformList', 'transformMap', 'transformMapEntry', 'optMap', 'optFlatMap']);
/** The comprehension macros that take two iteration variables with three arguments. */
export const TWO_VARIABLE_MACROS = new Set(['all', 'exists', 'existsOne', 'exists_one']);
/** Calls the planner itself handles (operators and macros' helpers), not found among the functions. */
const OPERATORS = new Set(['_&&_', '_||_', '_?_:_', '_[_]', '_[?_]', '_?._', '@not_strictly_false', '__not_strictly_false__']);
/** Identifiers that name types (`type(x) == string`). */
export const TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);

/** Whether a function or operator of that name runs here. */
export const knownFunction = (name: string): boolean => celLibrary().env.funcs.find(name) !== undefined || OPERATORS.has(name);

/** Why an expression calling these of Kubernetes' macros cannot run here. */
export const libraryReason = (library: ReadonlySet<string>): string =>
  `uses ${[...library].sort().join(', ')} from Kubernetes' CEL environment, macros @bufbuild/cel does not expand`;
