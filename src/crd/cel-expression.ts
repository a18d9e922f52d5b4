/**
 * One CEL expression of a rule, a messageExpression or a rule's text: parsed, checked as far as can be
 * done without CEL types (cel-type-check.ts), and planned into a program over `self` (and `oldSelf`).
 */
import type { CelInput } from '@bufbuild/cel';
import { libraryReason } from './cel-environment.js';
import { celLibrary } from './cel-library.js';
import type { CostTracker } from './cel-runtime-cost.js';
import { planTracked } from './cel-runtime-plan.js';
import { type Analysis, analyse, type Expr } from './cel-type-check.js';

type Node = Record<string, unknown>;

/** `oldSelf` is bound for transition rules only; a messageExpression reading it on a create falls back to message. */
export type Bindings = { self: CelInput; oldSelf?: CelInput };
/** Runs the expression; with a tracker, counts its cost there and stops past the tracker's limit. */
export type Program = (bindings: Bindings, tracker?: CostTracker) => unknown;

/** An expression with its string literals emptied, to look for syntax in it. */
const withoutStrings = (text: string) => text.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''");

/** Whether an expression names `oldSelf` outside its strings: a transition rule, even one that cannot be parsed here. */
export const mentionsOldSelf = (text: string): boolean => /\boldSelf\b/.test(withoutStrings(text));

type Analysed = { parsed: { expr: Expr }; found: Analysis } | { skip: string } | { error: string };

/** Parses one expression and says what it reads, as far as can be told without CEL types. */
export function analyseExpression(text: string, schema: Node): Analysed {
  if (/[.[]\?/.test(withoutStrings(text))) {
    return { skip: 'uses optional syntax (.? or [?]), which @bufbuild/cel does not parse' };
  }
  let parsed: { expr: Expr };
  try {
    parsed = celLibrary().cel.parse(text) as unknown as { expr: Expr };
  } catch (error) {
    return { error: (error as Error).message };
  }
  return { parsed, found: analyse(parsed.expr, schema) };
}

export function planExpression(parsed: { expr: Expr }): { program: Program } | { error: string } {
  try {
    const program = planTracked(parsed);
    return { program: (bindings, tracker) => program(bindings, tracker) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Parses, checks and plans one expression over `self` (and `oldSelf`, typed as self) at a schema node. */
export function compileExpression(text: string, schema: Node): { program: Program } | { skip: string } | { error: string } {
  const analysed = analyseExpression(text, schema);
  if (!('parsed' in analysed)) return analysed;
  const { found } = analysed;
  if (found.library.size > 0) return { skip: libraryReason(found.library) };
  if (found.errors.length > 0) return { error: found.errors.join('; ') };
  return planExpression(analysed.parsed);
}
