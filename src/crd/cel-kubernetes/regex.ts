/**
 * Kubernetes' CEL regex library (k8s.io/apiserver/pkg/cel/library/regex.go): find() and findAll()
 * of a string, in Go's regexp (RE2) syntax and semantics. A pattern Go refuses is an error of the
 * call; a literal one the API server refuses already when it compiles the rule (cel-type-check.ts).
 */
import type { CelFunc } from '@bufbuild/cel';
import type { RE2JS } from '@bufbuild/re2';
import { goRegExp } from '../../schema/go-regexp.js';
import type { Library } from './opaque.js';
import { findAllString, findString, type Prog } from './regex-find.js';

/** The program the find machine runs, of a compiled pattern. */
const programOf = (compiled: RE2JS): Prog => compiled.re2().prog as unknown as Prog;

/** Go's regexp.Compile: the program, or Go's error text (`error parsing regexp: …`); kept as go-regexp.ts keeps patterns. */
export function compileRegexp(pattern: string): Prog | string {
  try {
    return programOf(goRegExp(pattern));
  } catch (error) {
    return (error as Error).message;
  }
}

/** The functions whose second argument is a pattern, by name (for the literal check of a rule). */
export const REGEX_FUNCTIONS = new Set(['find', 'findAll']);

/** findAll's count: Go's int(n) of an int64, the same on a 64-bit server; beyond JavaScript's exact range, as good as all. */
const count = (n: unknown): number => (n === undefined ? -1 : Number(n));

/**
 * FindRegexOptimization and FindAllRegexOptimization: find() and findAll() on a pattern compiled
 * once, when the rule is planned (cel-runtime-regex.ts); `rest` is findAll's count, if any.
 */
export const REGEX_OPTIMIZATIONS: Record<string, (compiled: RE2JS, text: string, rest: unknown[]) => unknown> = {
  find: (compiled, text) => findString(programOf(compiled), text),
  findAll: (compiled, text, [n]) => findAllString(programOf(compiled), text, count(n)),
};

export const regexLibrary: Library = ({ cel }): CelFunc[] => {
  const { celMethod, listType } = cel;
  const { STRING, INT } = cel.CelScalar;
  const compiled = (pattern: string) => {
    const prog = compileRegexp(pattern);
    if (typeof prog === 'string') throw new Error(`Illegal regex: ${prog}`);
    return prog;
  };
  return [
    celMethod('find', STRING, [STRING], STRING, function (pattern) {
      return findString(compiled(pattern), this);
    }),
    celMethod('findAll', STRING, [STRING], listType(STRING), function (pattern) {
      return findAllString(compiled(pattern), this, -1);
    }),
    celMethod('findAll', STRING, [STRING, INT], listType(STRING), function (pattern, n) {
      return findAllString(compiled(pattern), this, count(n));
    }),
  ];
};
