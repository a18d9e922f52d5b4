/**
 * Schema patterns as the API server runs them: Go's regexp (RE2), here by @bufbuild/re2, for every
 * `pattern` the input and custom-resource checks compile. Go's dialect (`\z`, `(?i)`, `[[:alpha:]]`
 * are patterns; lookahead and backreferences are not) and Go's linear time: JavaScript's RegExp
 * backtracks, and `^([a-z0-9]+-?)*[a-z0-9]$` on 30 characters held the server for seconds.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { RE2JS } from '@bufbuild/re2';
import type { CodeOptions } from 'ajv';

type Re2 = typeof import('@bufbuild/re2');
type RegExpEngine = NonNullable<CodeOptions['regExp']>;

// Loaded with the first pattern, not at start; its CommonJS build, the one copy CEL loads too (crd/cel-library.ts).
let re2: Re2 | undefined;
/** @bufbuild/re2, its parser made to append as Go's does and bounded to this heap (below): every user of RE2 here takes it from this one. */
export const goRe2 = (): Re2 => (re2 ??= goParser(createRequire(import.meta.url)('@bufbuild/re2') as Re2));

/**
 * Go's parser refuses a pattern whose program passes 3,355,443 instructions or whose character
 * classes pass 33,554,432 runes ("expression too large"): about 130 MB in Go. The same program
 * takes about ten times the bytes in V8 (some 100 an instruction, 16 a rune, measured), so Go's
 * limits would let one 22 KB pattern (`[a-z]{1000}` 2,000 times) run the Deployment's 160 MiB heap
 * out. This server compiles a tenth of them at most, and says so: a pattern between the two is one
 * the API server takes and this server refuses, the one place it does (docs/reliability.md).
 */
export const PATTERN_INSTRUCTIONS = 250_000;
export const PATTERN_RUNES = 1_000_000;
const GO_TOO_LARGE = 'expression too large';
const TOO_LARGE_HERE =
  `expression too large for this server: past ${PATTERN_INSTRUCTIONS} instructions or ${PATTERN_RUNES} runes of ` +
  `character classes, the most it compiles (Go's limits are 3355443 and 33554432); ` +
  `split the pattern, or use narrower classes and fewer repeats`;

/**
 * @bufbuild/re2's parser, changed in three ways. It joins a literal's runes into a new array at each
 * rune (Parser.concatRunes), where Go's parser appends (`re2.Rune = append(re2.Rune, re1.Rune...)`):
 * a 65,000-character literal took 33 s to compile, Go's 22 ms; it appends in place now, the array
 * joined to being the literal's own, replaced by the result at its only call (Parser.maybeConcat).
 * It copies its stack where Go reslices it (below). And its size limits are this server's (above).
 */
function goParser(module: Re2): Re2 {
  const require = createRequire(import.meta.url);
  const parser = require(path.join(path.dirname(require.resolve('@bufbuild/re2')), 'Parser.js')) as {
    Parser: {
      concatRunes(x: number[], y: number[]): number[];
      MAX_SIZE: number;
      MAX_RUNES: number;
      prototype: { popToPseudo(): unknown[] };
    };
  };
  parser.Parser.concatRunes = (x, y) => {
    for (const rune of y) x.push(rune);
    return x;
  };
  // popToPseudo copied the whole parse stack at every group and alternation it closed, where Go
  // reslices (`p.stack = p.stack[:i]`): a 60,000-character pattern of groups took 233 ms, now 107 (Go: 73).
  const { Regexp } = require(path.join(path.dirname(require.resolve('@bufbuild/re2')), 'Regexp.js')) as {
    Regexp: { isPseudoOp(op: number): boolean };
  };
  parser.Parser.prototype.popToPseudo = function popToPseudo(this: { stack: Array<{ op: number }> }) {
    let i = this.stack.length;
    while (i > 0 && !Regexp.isPseudoOp(this.stack[i - 1]!.op)) i--;
    return this.stack.splice(i);
  };
  parser.Parser.MAX_SIZE = PATTERN_INSTRUCTIONS;
  parser.Parser.MAX_RUNES = PATTERN_RUNES;
  return module;
}

/**
 * What a compiled pattern holds in V8 (its parse tree and program), from its program: about 320
 * bytes an instruction and 12 a rune of its character classes, measured on @bufbuild/re2 0.6 over
 * patterns of one repeated shape (`.`, `\w`, `\pL`, `a{9}`, `(a|b)` …); it over-counts the
 * cheap shapes. A count of patterns bounds nothing: one 65,000-character pattern keeps 1 to 330 MB.
 */
const INST_BYTES = 320;
const RUNE_BYTES = 12;
/** What the compiled patterns kept may hold together; one above ENTRY_BYTES is not kept (Go keeps none). */
export const PATTERN_CACHE_BYTES = 8 * 1024 * 1024;
const ENTRY_BYTES = 256 * 1024;

/** The bytes `compiled` holds, estimated from its program. */
export function heldBytes(compiled: RE2JS): number {
  const { prog } = compiled.re2() as unknown as { prog: { inst: Array<{ runes?: ArrayLike<number> }> } };
  let runes = 0;
  for (const inst of prog.inst) runes += inst.runes?.length ?? 0;
  return prog.inst.length * INST_BYTES + runes * RUNE_BYTES;
}

// ajv compiles a pattern once per place it stands; CRDs repeat theirs (hostnames, names) many times.
// Kept by bytes, least recently used first out (a Map iterates in insertion order; a hit moves to the end).
const compiled = new Map<string, { program: RE2JS; bytes: number }>();
let cachedBytes = 0;

/** Go's regexp.Compile: throws Go's message (`error parsing regexp: …`) for a pattern Go refuses. */
export function goRegExp(pattern: string): RE2JS {
  const found = compiled.get(pattern);
  if (found !== undefined) {
    compiled.delete(pattern);
    compiled.set(pattern, found);
    return found.program;
  }
  const program = compileWithinLimits(pattern);
  const bytes = heldBytes(program) + 2 * pattern.length;
  if (bytes > ENTRY_BYTES) return program;
  for (const [oldest, entry] of compiled) {
    if (cachedBytes + bytes <= PATTERN_CACHE_BYTES) break;
    compiled.delete(oldest);
    cachedBytes -= entry.bytes;
  }
  compiled.set(pattern, { program, bytes });
  cachedBytes += bytes;
  return program;
}

/** RE2JS.compile, its "expression too large" said as this server's limit, which is lower than Go's. */
function compileWithinLimits(pattern: string): RE2JS {
  const module = goRe2();
  try {
    return module.RE2JS.compile(pattern);
  } catch (error) {
    if (error instanceof module.RE2JSException && error.message.endsWith(GO_TOO_LARGE))
      throw new module.RE2JSSyntaxException(TOO_LARGE_HERE);
    throw error;
  }
}

/** What the kept patterns hold, by the estimate above: for tests and metrics. */
export const patternCacheBytes = (): number => cachedBytes;

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
