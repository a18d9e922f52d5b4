/**
 * What the generators of test/apiserver make: a manifest and the rule it was made to probe, and what
 * a kind's generator is (a valid manifest, and mutations that each change one rule's field).
 */
import fc from 'fast-check';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Manifest = Record<string, any>;

/** The groups of rules the generators probe, for the accepted/refused split. */
export const RULE_CLASSES = [
  'valid',
  'names',
  'labels',
  'annotations',
  'finalizers',
  'ownerReferences',
  'ports',
  'keys',
  'paths',
  'modes',
  'versions',
  'class',
  'spec',
  'decode',
] as const;
export type RuleClass = (typeof RULE_CLASSES)[number];

/** One generated manifest: `rule` is `<class>/<what>`, e.g. `ports/duplicate-name`. */
export interface Case {
  manifest: Manifest;
  rule: string;
}

export const ruleClass = (rule: string): RuleClass => rule.split('/')[0] as RuleClass;

/** A change to a manifest in place. */
export type Mutation = (manifest: Manifest) => void;

export interface Probe {
  /** `<class>/<what>`. */
  rule: string;
  mutation: fc.Arbitrary<Mutation>;
  /** How often, relative to the other probes of the kind (1 unless said). */
  weight?: number;
}

export interface KindGenerator {
  apiVersion: string;
  kind: string;
  namespaced: boolean;
  /** Manifests the API server accepts: realistic and schema-valid. */
  valid: fc.Arbitrary<Manifest>;
  /** Mutations of a valid manifest, each at one rule (which may keep it valid: a boundary). */
  probes: Probe[];
  /** A custom resource's CRD, as sent to the oracle. */
  crd?: Manifest;
}

/** A probe made of a value and where it goes. */
export const probe = <T>(rule: string, value: fc.Arbitrary<T>, apply: (manifest: Manifest, value: T) => void, weight?: number): Probe => ({
  rule,
  mutation: value.map((v) => (manifest: Manifest) => apply(manifest, v)),
  ...(weight === undefined ? {} : { weight }),
});

/** Sets `manifest` at a path of members, making objects on the way. */
export function setIn(manifest: Manifest, path: ReadonlyArray<string | number>, value: unknown): void {
  let at: Manifest = manifest;
  for (const key of path.slice(0, -1)) {
    at[key] ??= typeof key === 'number' ? [] : {};
    at = at[key];
  }
  at[path[path.length - 1]!] = value;
}

/** Valid manifests (a quarter of the cases, rule `valid/…`) and probes of each rule, as their weights say. */
export function caseArbitrary(generator: KindGenerator): fc.Arbitrary<Case> {
  // fast-check wants integer weights: a weight of 1 is 20, 0.15 is 3.
  const weight = (p: Probe) => Math.max(1, Math.round((p.weight ?? 1) * 20));
  const probeWeight = generator.probes.reduce((sum, p) => sum + weight(p), 0);
  // Through JSON, as the oracle and a request see it: members set to undefined are gone.
  const valid = generator.valid.map((manifest) => ({ manifest: JSON.parse(JSON.stringify(manifest)) as Manifest, rule: 'valid/base' }));
  return fc.oneof(
    { arbitrary: valid, weight: Math.max(1, Math.round(probeWeight / 3)) },
    ...generator.probes.map((p) => ({
      arbitrary: fc.tuple(generator.valid, p.mutation).map(([manifest, mutate]) => {
        const copy = JSON.parse(JSON.stringify(manifest)) as Manifest;
        mutate(copy);
        return { manifest: JSON.parse(JSON.stringify(copy)) as Manifest, rule: p.rule };
      }),
      weight: weight(p),
    })),
  );
}
