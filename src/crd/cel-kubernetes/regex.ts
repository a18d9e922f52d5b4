/**
 * Kubernetes' CEL regex library (k8s.io/apiserver/pkg/cel/library/regex.go): find() and findAll()
 * of a string, in Go's regexp (RE2) syntax and semantics. A pattern Go refuses is an error of the
 * call; a literal one the API server refuses already when it compiles the rule (cel-type-check.ts).
 */
import type { CelFunc } from '@bufbuild/cel';
import type { CelRuntime, Library } from './opaque.js';
import { findAllString, findString, type Prog } from './regex-find.js';

const programs = new Map<string, Prog | string>();

/** Go's regexp.Compile: the program, or Go's error text (`error parsing regexp: …`), each pattern compiled once. */
export function compileRegexp(re2: CelRuntime['re2'], pattern: string): Prog | string {
  let found = programs.get(pattern);
  if (found === undefined) {
    try {
      found = re2.RE2JS.compile(pattern).re2().prog as unknown as Prog;
    } catch (error) {
      found = (error as Error).message;
    }
    if (programs.size >= 1000) programs.clear();
    programs.set(pattern, found);
  }
  return found;
}

/** The functions whose second argument is a pattern, by name (for the literal check of a rule). */
export const REGEX_FUNCTIONS = new Set(['find', 'findAll']);

export const regexLibrary: Library = ({ cel, re2 }): CelFunc[] => {
  const { celMethod, listType } = cel;
  const { STRING, INT } = cel.CelScalar;
  const compiled = (pattern: string) => {
    const prog = compileRegexp(re2, pattern);
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
      // Go's int(n) of an int64: the same on a 64-bit server; beyond JavaScript's exact range, as good as all.
      return findAllString(compiled(pattern), this, Number(n));
    }),
  ];
};
