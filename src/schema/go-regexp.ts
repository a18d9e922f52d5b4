/**
 * Schema patterns as the API server runs them: Go's regexp (RE2), here by @bufbuild/re2, for every
 * `pattern` the input and custom-resource checks compile. Go's dialect (`\z`, `(?i)`, `[[:alpha:]]`
 * are patterns; lookahead and backreferences are not) and Go's linear time: JavaScript's RegExp
 * backtracks, and `^([a-z0-9]+-?)*[a-z0-9]$` on 30 characters held the server for seconds.
 */
import { createRequire } from 'node:module';
import type { RE2JS } from '@bufbuild/re2';
import type { CodeOptions } from 'ajv';

type Re2 = typeof import('@bufbuild/re2');
type RegExpEngine = NonNullable<CodeOptions['regExp']>;

// Loaded with the first pattern, not at start; its CommonJS build, the one copy CEL loads too (crd/cel-library.ts).
let re2: Re2 | undefined;
const loaded = (): Re2 => (re2 ??= createRequire(import.meta.url)('@bufbuild/re2') as Re2);

// ajv compiles a pattern once per place it stands; CRDs repeat theirs (hostnames, names) many times.
const compiled = new Map<string, RE2JS>();

/** Go's regexp.Compile: throws Go's message (`error parsing regexp: …`) for a pattern Go refuses. */
export function goRegExp(pattern: string): RE2JS {
  let found = compiled.get(pattern);
  if (found === undefined) {
    found = loaded().RE2JS.compile(pattern);
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(pattern, found);
  }
  return found;
}

/** How to fix a pattern Go refuses. */
export const GO_PATTERN_FIX = 'write the pattern in Go (RE2) syntax: no lookahead, lookbehind or backreferences';

/** True for what goRegExp throws for a pattern Go refuses (ajv lets it through as it is). */
export const isRefusedPattern = (error: unknown): boolean => re2 !== undefined && error instanceof re2.RE2JSException;

/** Why Go refuses `pattern`, in Go's words, or undefined when it compiles. */
export function goRegExpError(pattern: string): string | undefined {
  try {
    goRegExp(pattern);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The engine for ajv's `code.regExp`. ajv's `u` flag is dropped: RE2 reads patterns as Unicode
 * always. RE2JS's `test` searches like Go's MatchString, and its toString is the pattern, which ajv
 * keys a compiled pattern by. `code` is what standalone code would call; facetform generates none.
 */
export const goRegExpEngine: RegExpEngine = Object.assign((pattern: string) => goRegExp(pattern), {
  code: 'require("@bufbuild/re2").RE2JS.compile',
});
