/**
 * The registry of kinds: which rules the API server runs for which kind. A built-in kind whose
 * rules are ported has an entry in BUILT_IN; a custom resource gets the metadata rules alone (names
 * as DNS subdomains), as apiextensions' customResourceValidator runs them, its schema and CEL being
 * its CRD's (src/crd). A built-in kind with no entry is checked by its OpenAPI schema alone, and
 * lint warns at every collection of it (src/lint/rules/unported-kind.ts).
 *
 * Folders stand as Kubernetes' packages do, each importing only those before it
 * (test/helpers/architecture.ts holds them to it): golang/ (Go's standard library), apimachinery/
 * (field errors, names, object meta, label selectors, quantities), registry/ (the create step and
 * a kind's KindRules), core/ (pkg/apis/core/validation), then one folder per API group whose rules
 * call core's (networking/, storage/, apiextensions/; apps/ and batch/ go there).
 *
 * What a new kind needs, all of it, before its collections are judged as the API server judges them:
 * 1. Its rules: a module in its group's folder, beside the Go file it ports, exporting a KindRules
 *    whose validate is pkg/apis/<group>/validation's Validate<Kind> (core's object meta first,
 *    core/object-meta.ts), calling core's shared rules rather than copying them.
 * 2. Its defaults: KindRules.defaults, the SetDefaults_<Kind> of its versioned type and of every
 *    nested type (the generated SetObjectDefaults_<Kind> order), run on a copy.
 * 3. Its entry in BUILT_IN below. That entry also turns on ManifestCheck's `decodedByGo`
 *    (src/manifest/kube-check.ts): from then on the kind's OpenAPI schema is read as Go's decoder
 *    reads the kind, so a null member is its zero value and an `enum` no longer refuses, and the
 *    kind's rules must refuse every value Go refuses (`Unsupported value`). An entry without those
 *    rules would answer 200 where the API server refuses.
 * 4. The oracle's judge: the kind's group and kind in `judges` of test/oracle/main.go, with the
 *    scheme that decodes and defaults it and the registry strategy whose Validate runs, as the
 *    API server's create does.
 * 5. Generators: valid manifests and ones broken one rule at a time, in GENERATORS of
 *    test/apiserver/arbitraries.ts (test/apiserver-vectors.test.ts fails for a shipped kind without one).
 * 6. Committed vectors: `npm run oracle:vectors` writes test/vectors/<Kind>.jsonl, judged by Go, which
 *    `npm test` compares with ours without Go; `npm run test:oracle` runs a fresh differential run.
 * docs/layout.md ("A new kind of the API server") says the same for readers of the docs.
 */
import type { FieldError } from './apimachinery/field-error.js';
import type { KindRules } from './registry/kind-rules.js';
import { nameIsDNSSubdomain } from './apimachinery/names.js';
import { validateObjectMeta } from './apimachinery/object-meta.js';
import { configMapRules } from './core/config-map.js';
import { customResourceDefinitionRules } from './apiextensions/custom-resource-definition.js';
import { endpointsRules } from './core/endpoints.js';
import { ingressClassRules } from './networking/ingress-class.js';
import { ingressRules } from './networking/ingress.js';
import { persistentVolumeClaimRules } from './core/persistent-volume-claim.js';
import { persistentVolumeRules } from './core/persistent-volume.js';
import { secretRules } from './core/secret.js';
import { serviceRules } from './core/service.js';
import { storageClassRules } from './storage/storage-class.js';

const BUILT_IN = new Map<string, KindRules>([
  ['/Service', serviceRules],
  ['/Endpoints', endpointsRules],
  ['/ConfigMap', configMapRules],
  ['/Secret', secretRules],
  ['/PersistentVolume', persistentVolumeRules],
  ['/PersistentVolumeClaim', persistentVolumeClaimRules],
  ['storage.k8s.io/StorageClass', storageClassRules],
  ['networking.k8s.io/Ingress', ingressRules],
  ['networking.k8s.io/IngressClass', ingressClassRules],
  ['apiextensions.k8s.io/CustomResourceDefinition', customResourceDefinitionRules],
]);

/** `networking.k8s.io/v1` → `networking.k8s.io`; the core group's `v1` → ''. */
const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

/** The built-in kinds whose rules are ported, as `group/Kind` (the core group's is ''): those judged as the API server judges them. */
export const portedKinds = (): Array<{ group: string; kind: string }> =>
  [...BUILT_IN.keys()].map((key) => ({ group: key.slice(0, key.indexOf('/')), kind: key.slice(key.indexOf('/') + 1) }));

/** The API server's own rules of a built-in kind, or undefined where facetform has not ported them. */
export function builtInRules(apiVersion: string, kind: string): KindRules | undefined {
  return BUILT_IN.get(`${groupOf(apiVersion)}/${kind}`);
}

/** A custom resource's metadata rules; its schema and CEL rules are its CRD's (src/crd). */
export function customResourceRules(namespaced: boolean): KindRules {
  return { namespaced, validate: (manifest): FieldError[] => validateObjectMeta(manifest.metadata, namespaced, nameIsDNSSubdomain) };
}
