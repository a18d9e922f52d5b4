/**
 * The container rules of core's PodSpec validation (src/apiserver/core/pod/) against Kubernetes'
 * own: every pod of test/vectors/pod-containers.jsonl, judged by test/oracle/podspec
 * (k8s.io/kubernetes v1.33.13's pod defaults and create), must get the same field errors from us
 * on the ported paths (spec.containers, spec.initContainers). No Go needed:
 * `npx tsx scripts/oracle-pod-containers-vectors.ts` writes the vectors afresh.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorLines, isPortedPath, MUTATIONS, ourContainerErrors, type Verdict } from './apiserver/pod-containers.js';
import type { Manifest } from './apiserver/case.js';

interface Vector {
  rule: string;
  manifest: Manifest;
  oracle: { verdict: 'accept' | 'refuse'; errors: Verdict[] };
}

const vectors: Vector[] = readFileSync(new URL('./vectors/pod-containers.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line) as Vector);

describe('pod containers: ours and Kubernetes agree', () => {
  it('covers valid pods and every mistake', () => {
    const rules = new Set(vectors.map((v) => v.rule));
    expect([...Object.keys(MUTATIONS), 'valid'].filter((rule) => !rules.has(rule))).toEqual([]);
    expect(vectors.filter((v) => v.rule === 'valid').every((v) => v.oracle.verdict === 'accept')).toBe(true);
  });

  it.each(Object.keys(MUTATIONS).concat('valid'))('%s', (rule) => {
    const disagreements = vectors
      .filter((v) => v.rule === rule)
      .map((v) => ({
        go: errorLines(v.oracle.errors.filter((e) => isPortedPath(e.field))),
        ours: errorLines(ourContainerErrors(v.manifest)),
      }))
      .filter(({ go, ours }) => JSON.stringify(go) !== JSON.stringify(ours));
    expect(disagreements).toEqual([]);
  });
});
