/**
 * What the oracle scripts share (scripts/oracle-vectors.ts, scripts/oracle-differential.ts): the
 * oracle built or a clear exit without Go, cases sampled per kind from one seed, and the oracle's
 * verdicts on them.
 */
import fc from 'fast-check';
import { buildOracle, findGo, judge, type OracleVerdict } from '../helpers/oracle.js';
import type { KindCases } from './arbitraries.js';
import type { Case } from './case.js';

/** The oracle's binary; without Go (or when the build fails) says why and exits. */
export function oracleOrExit(): string {
  const go = findGo();
  if (!go.found && process.env.ORACLE_BIN === undefined) {
    console.error(
      `Go is missing: \`${process.env.GO ?? 'go'}\` does not run. The oracle (test/oracle, Kubernetes' own validation) is a Go program built on first use and needs Go 1.26 (see docs/reliability.md): install Go, or set ORACLE_BIN to a built oracle.`,
    );
    process.exit(2);
  }
  try {
    return buildOracle((line) => console.log(line));
  } catch (error) {
    console.error(`The oracle cannot be built: ${(error as Error).message}`);
    process.exit(2);
  }
}

/** A kind's own seed from the run's: a kind's cases do not change when other kinds are added. */
export function seedFor(seed: number, kind: string): number {
  let hash = seed >>> 0;
  for (const char of kind) hash = (Math.imul(hash ^ char.charCodeAt(0), 16777619) + 2166136261) >>> 0;
  return hash | 0;
}

export interface SampleOptions {
  /** Lines of more than 64 KiB (the 256 KiB annotations, the 1 MiB ConfigMap) may add up to this many bytes; the others are left out. */
  largeBytes?: number;
}

/** `count` cases of a kind, the same for the same seed. */
export function sampleCases(kindCases: KindCases, count: number, seed: number, { largeBytes = Infinity }: SampleOptions = {}): Case[] {
  const cases: Case[] = [];
  let large = 0;
  let round = 0;
  while (cases.length < count) {
    for (const c of fc.sample(kindCases.cases, {
      seed: seedFor(seed + round, kindCases.kind.kind),
      numRuns: Math.ceil((count - cases.length) * 1.05) + 10,
    })) {
      if (cases.length === count) break;
      const size = JSON.stringify(c.manifest).length;
      if (size > 64 * 1024) {
        if (large + size > largeBytes) continue;
        large += size;
      }
      cases.push(c);
    }
    round++;
  }
  return cases;
}

/** The oracle's verdicts on cases of a kind (its CRD sent along for a custom resource). */
export function judgeCases(kindCases: KindCases, cases: readonly Case[], bin: string): Promise<OracleVerdict[]> {
  return judge(
    cases.map((c) => ({ manifest: c.manifest, ...(kindCases.crd === undefined ? {} : { crd: kindCases.crd }) })),
    bin,
  );
}

/** Reads `--name value` from argv, else the environment variable, else the default. */
export function option(name: string, env: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  if (i !== -1 && process.argv[i + 1] !== undefined) return process.argv[i + 1]!;
  return process.env[env] ?? fallback;
}
