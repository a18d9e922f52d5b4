/**
 * Which rules the API server runs for which kind: one module per built-in kind under kinds/, and
 * the metadata rules alone (names as DNS subdomains) for a custom resource, as apiextensions'
 * customResourceValidator runs them.
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

/** The API server's own rules of a built-in kind, or undefined where facetform has not ported them. */
export function builtInRules(apiVersion: string, kind: string): KindRules | undefined {
  return BUILT_IN.get(`${groupOf(apiVersion)}/${kind}`);
}

/** A custom resource's metadata rules; its schema and CEL rules are its CRD's (src/crd). */
export function customResourceRules(namespaced: boolean): KindRules {
  return { namespaced, validate: (manifest): FieldError[] => validateObjectMeta(manifest.metadata, namespaced, nameIsDNSSubdomain) };
}
