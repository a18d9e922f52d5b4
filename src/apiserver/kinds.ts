/**
 * Which rules the API server runs for which kind: one module per built-in kind under kinds/, and
 * the metadata rules alone (names as DNS subdomains) for a custom resource, as apiextensions'
 * customResourceValidator runs them.
 */
import type { FieldError } from './field-error.js';
import type { KindRules } from './kind-rules.js';
import { nameIsDNSSubdomain } from './names.js';
import { validateObjectMeta } from './object-meta.js';
import { configMapRules } from './kinds/config-map.js';
import { customResourceDefinitionRules } from './kinds/custom-resource-definition.js';
import { endpointsRules } from './kinds/endpoints.js';
import { ingressClassRules } from './kinds/ingress-class.js';
import { ingressRules } from './kinds/ingress.js';
import { persistentVolumeClaimRules } from './kinds/persistent-volume-claim.js';
import { persistentVolumeRules } from './kinds/persistent-volume.js';
import { secretRules } from './kinds/secret.js';
import { serviceRules } from './kinds/service.js';
import { storageClassRules } from './kinds/storage-class.js';

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

/** The API server's own rules of a built-in kind, or undefined where facetform has not ported them. */
export function builtInRules(apiVersion: string, kind: string): KindRules | undefined {
  return BUILT_IN.get(`${groupOf(apiVersion)}/${kind}`);
}

/** A custom resource's metadata rules; its schema and CEL rules are its CRD's (src/crd). */
export function customResourceRules(namespaced: boolean): KindRules {
  return { namespaced, validate: (manifest): FieldError[] => validateObjectMeta(manifest.metadata, namespaced, nameIsDNSSubdomain) };
}
