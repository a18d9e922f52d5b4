/**
 * cel-go's regex optimization, which the API server plans every rule with (cel.OptimizeRegex with
 * MatchesRegexOptimization and Kubernetes' FindRegexOptimization, FindAllRegexOptimization): a
 * matches(), find() or findAll() whose pattern is a literal compiles it once, when the rule is
 * planned, not at every call (a 6,000-character pattern compiles in about 20 ms, at each of a
 * list's items). The compiled program is the call's own, however large: it lives as long as the rule.
 */
import type { RE2JS } from '@bufbuild/re2';
import { goRegExp } from '../schema/go-regexp.js';
import { REGEX_OPTIMIZATIONS } from './cel-kubernetes/regex.js';

type Optimized = (compiled: RE2JS, text: string, rest: unknown[]) => unknown;

const OPTIMIZATIONS: Record<string, Optimized> = {
  // @bufbuild/cel's matches() is RE2JS.compile(pattern).test(text): Go's MatchString.
  matches: (compiled, text) => compiled.test(text),
  ...REGEX_OPTIMIZATIONS,
};

/** A planned node whose value is known before the rule runs. */
type Constant = { constructor: { name: string }; value?: unknown };

/**
 * The call of `name` on a string target with its pattern (`args[0]`) compiled now, or undefined when
 * it has none to compile: not one of these functions, a pattern that is not a literal string, or
 * one Go refuses (the rule's compilation has refused it already; the call fails as it did).
 */
export function precompiledRegex(name: string, args: readonly unknown[]): ((text: unknown, values: unknown[]) => unknown) | undefined {
  const optimized = OPTIMIZATIONS[name];
  const pattern = args[0] as Constant | undefined;
  if (optimized === undefined || pattern?.constructor.name !== 'EvalConst' || typeof pattern.value !== 'string') return undefined;
  let compiled: RE2JS;
  try {
    compiled = goRegExp(pattern.value);
  } catch {
    return undefined;
  }
  return (text, values) => (typeof text === 'string' ? optimized(compiled, text, values.slice(1)) : undefined);
}
