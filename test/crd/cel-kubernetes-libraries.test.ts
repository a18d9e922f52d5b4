/**
 * Kubernetes' CEL libraries here (src/crd/cel-kubernetes/) against Kubernetes' own: every vector of
 * test/vectors/cel-kubernetes-libraries.jsonl (what k8s.io/apiserver v0.33.13's CRD environment
 * made of an expression, `npm run oracle:cel-vectors`) evaluated here must give the same value, the
 * same error text, or a compile error where Go has one. Go's generic "no such overload" is
 * @bufbuild/cel's "found no matching overload …". The two-variable and optional macros, which
 * @bufbuild/cel does not expand, must be skipped here, never misjudged.
 */
import { describe, expect, it } from 'vitest';
import { type CelOutcome, type CelVector, evaluateHere, readCelVectors } from '../helpers/cel-libraries.js';

const vectors = readCelVectors();

/** Our outcome in the vector's terms: compile errors and overload errors by kind, other errors and values exactly. */
function comparable(outcome: CelOutcome, go: CelOutcome): CelOutcome {
  if ('compileError' in outcome && 'compileError' in go) return go;
  if ('error' in outcome && 'error' in go && /^no such overload$|^found no matching overload/.test(go.error)) {
    return /^found no matching overload|^no such overload$/.test(outcome.error) ? go : outcome;
  }
  return outcome;
}

describe("Kubernetes' CEL libraries agree with k8s.io/apiserver v0.33.13", () => {
  it('has vectors of every library', () => {
    const libraries = new Set(vectors.map((vector) => vector.library));
    expect([...libraries].filter((library) => !library.startsWith('random ')).sort()).toEqual([
      'cidr',
      'environment',
      'format',
      'ip',
      'lists',
      'optional',
      'quantity',
      'regex',
      'sets',
      'skipped',
      'url',
    ]);
    expect(vectors.length).toBeGreaterThan(2500);
  });

  const byLibrary = new Map<string, CelVector[]>();
  for (const vector of vectors) byLibrary.set(vector.library, [...(byLibrary.get(vector.library) ?? []), vector]);
  for (const [library, cases] of byLibrary) {
    it(`${library}: ${cases.length} expressions`, () => {
      const disagreements = cases.flatMap((vector) => {
        const here = evaluateHere(vector);
        if (library === 'skipped') return 'skip' in here ? [] : [{ expr: vector.expr, go: vector.go, here }];
        const seen = comparable(here, vector.go);
        return JSON.stringify(seen) === JSON.stringify(vector.go) ? [] : [{ expr: vector.expr, go: vector.go, here }];
      });
      expect(disagreements).toEqual([]);
    });
  }
});
