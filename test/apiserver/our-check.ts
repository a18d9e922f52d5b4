/**
 * Our check of a manifest, as the product runs it (ManifestCheck.problems), and the schema part of
 * it alone: kubernetes-models' validator for a built-in kind, the CRD's JSON Schema (no CEL, no
 * keyed lists) for a custom resource. A custom resource's check is made from the bundle in dist/
 * that keeps its collection's `customResource` (what the server checks answers with) when that bundle
 * holds the CRD file's schema, else from the CRD file itself (a few seconds: ObjectMeta is generated).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { builtInKindCheck, type CustomResourceSchema, customResourceCheck as productCheck } from '../../src/crd/crd-check.js';
import { crdKindSchema } from '../../src/crd/crd-schema.js';
import { readCrd } from '../../src/crd/crd.js';
import { objectMetaDefinitions } from '../../src/crd/object-meta.js';
import { kubeModel } from '../../src/kubernetes/kube-models.js';
import type { Problem } from '../../src/request/problems.js';
import { InputValidator } from '../../src/schema/input-validator.js';
import { declaredRelease, ROOT, SHIPPED_REPOS } from '../helpers/repos.js';
import type { Manifest } from './case.js';

export interface OurCheck {
  /** Every problem the product reports for the manifest. */
  problems(manifest: unknown): Problem[];
  /** True when the schema check alone finds a problem. */
  schemaRefuses(manifest: unknown): boolean;
}

/** The check of a built-in kind; throws when kubernetes-models has no model of it. */
export function builtInCheck(apiVersion: string, kind: string): OurCheck {
  const check = builtInKindCheck(apiVersion, kind);
  const model = kubeModel(apiVersion, kind);
  if (check === undefined || model === undefined) throw new Error(`ManifestCheck has no check of ${apiVersion} ${kind}`);
  return { problems: (manifest) => check.problems(manifest), schemaRefuses: (manifest) => model.validate(manifest).length > 0 };
}

/** The bundle of `repository` in dist/ at its declared release, or undefined. */
function committedBundle(
  repository: string,
): { collections: Array<{ kind: string; apiVersion: string; customResource?: CustomResourceSchema }> } | undefined {
  // A CRD from outside repos/ (Gateway API's, read from test/fixtures) has no bundle.
  if (!existsSync(path.join(SHIPPED_REPOS, repository, 'repository.json'))) return undefined;
  const file = path.join(ROOT, 'dist', repository, 'v1', declaredRelease(repository), 'bundle.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

/** What a bundle keeps of a custom resource, from the bundle when it has the CRD's schema, else made from the CRD. */
export function customResourceSchema(crd: Manifest, crdFile: string, apiVersion: string, kind: string): CustomResourceSchema {
  const version = apiVersion.split('/')[1];
  const served = (crd.spec.versions as Manifest[]).find((v) => v.name === version);
  const repository = crdFile.split('/')[0]!;
  const kept = committedBundle(repository)?.collections.find((c) => c.apiVersion === apiVersion && c.kind === kind)?.customResource;
  if (kept !== undefined && isDeepStrictEqual(kept.openAPIV3Schema, served?.schema?.openAPIV3Schema)) return kept;
  const reading = readCrd(crd);
  const found = reading.crd?.versions.find((v) => v.name === version);
  if (reading.crd === undefined || found === undefined)
    throw new Error(`${crdFile} does not serve ${apiVersion} ${kind}: ${JSON.stringify(reading.problems)}`);
  const kindSchema = crdKindSchema(reading.crd, found, objectMetaDefinitions());
  return {
    crd: reading.crd.name,
    version: found.name,
    definitions: kindSchema.definitions,
    openAPIV3Schema: found.schema,
    scope: reading.crd.scope,
  };
}

/** The check of a custom resource whose CRD is `crd` (read from `crdFile`, relative to repos/). */
export function customResourceCheck(crd: Manifest, crdFile: string, apiVersion: string, kind: string): OurCheck {
  const resource = customResourceSchema(crd, crdFile, apiVersion, kind);
  const check = productCheck(kind, resource);
  const schema = new InputValidator({ $ref: `#/definitions/${kind}`, definitions: resource.definitions }).compile();
  return { problems: (manifest) => check.problems(manifest), schemaRefuses: (manifest) => !schema(manifest) };
}
