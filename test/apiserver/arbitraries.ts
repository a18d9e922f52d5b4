/**
 * fast-check arbitraries of manifests of every kind the shipped repositories render, the list read
 * from repos/ (shipped.ts) rather than written here: each kind's generator (valid manifests and
 * probes of one rule each, see case.ts) is looked up by apiVersion and kind, and a custom resource
 * gets the CRD of its repository to send to the oracle.
 */
import type fc from 'fast-check';
import { type Case, caseArbitrary, type KindGenerator } from './case.js';
import { configMap, secret } from './config.js';
import { customResourceDefinition } from './crd.js';
import { backupPolicy, webApp } from './custom-resources.js';
import { endpoints } from './endpoints.js';
import { ingress } from './ingress.js';
import { ingressClass } from './ingress-class.js';
import { service } from './service.js';
import { kindKey, type ShippedKind, shippedKinds } from './shipped.js';
import { persistentVolume } from './pv.js';
import { persistentVolumeClaim } from './pvc.js';
import { storageClass } from './storage-class.js';

export { type Case, RULE_CLASSES, ruleClass } from './case.js';
export type { ShippedKind } from './shipped.js';

/** Every generator, by `apiVersion|kind`. */
export const GENERATORS: ReadonlyMap<string, KindGenerator> = new Map(
  [
    service,
    endpoints,
    ingress,
    ingressClass,
    configMap,
    secret,
    persistentVolumeClaim,
    persistentVolume,
    storageClass,
    customResourceDefinition,
    webApp,
    backupPolicy,
  ].map((g) => [kindKey(g.apiVersion, g.kind), g]),
);

export interface KindCases {
  kind: ShippedKind;
  generator: KindGenerator;
  /** The CRD to send along, for a custom resource. */
  crd?: unknown;
  cases: fc.Arbitrary<Case>;
}

/** The shipped kinds that no generator makes manifests of. */
export function kindsWithoutGenerator(kinds = shippedKinds()): ShippedKind[] {
  return kinds.filter((kind) => !GENERATORS.has(kindKey(kind.apiVersion, kind.kind)));
}

/** The cases of every shipped kind; throws naming the kinds without a generator. */
export function shippedKindCases(kinds = shippedKinds()): KindCases[] {
  const missing = kindsWithoutGenerator(kinds);
  if (missing.length > 0) {
    throw new Error(
      `no generator in test/apiserver for ${missing.map((k) => `${k.apiVersion} ${k.kind} (${k.collections.join(', ')})`).join('; ')}: add one to GENERATORS in test/apiserver/arbitraries.ts`,
    );
  }
  return kinds.map((kind) => {
    const generator = GENERATORS.get(kindKey(kind.apiVersion, kind.kind))!;
    return { kind, generator, ...(kind.crd === undefined ? {} : { crd: kind.crd.manifest }), cases: caseArbitrary(generator) };
  });
}
