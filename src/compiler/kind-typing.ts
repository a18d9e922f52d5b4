/**
 * What types a collection's kind: a built-in kind's schema from kubernetes-models, a custom
 * resource's from a CRD of its repository (crds/), or nothing, which a collection must say it wants
 * ("untyped": true). One place decides it, for the input schema, the answer check and lint alike.
 */
import { builtInKindCheck, customResourceCheck, type CustomResourceSchema } from '../crd/crd-check.js';
import type { CrdCatalog } from '../crd/crd.js';
import { crdKindSchema } from '../crd/crd-schema.js';
import { objectMetaDefinitions, objectMetaFrom } from '../crd/object-meta.js';
import type { ManifestCheck } from '../manifest/kube-check.js';
import type { SourceFile } from '../repository/source-file.js';
import type { KubeTypes } from '../kubernetes/kube-types.js';
import type { KindSchema, Schema } from '../kubernetes/kind-schema.js';

export type KindTyping =
  | { by: 'kubernetes'; kindSchema: KindSchema | undefined; manifestCheck: ManifestCheck }
  | { by: 'crd'; crdFile: SourceFile; kindSchema: KindSchema; manifestCheck: ManifestCheck; customResource: CustomResourceSchema }
  | { by: 'nothing' };

export class KindTypes {
  private objectMeta: Record<string, Schema> | undefined;

  /** `builtIn`: the kinds the build generated, any of which lends custom resources its ObjectMeta. */
  constructor(
    private readonly kube: KubeTypes,
    private readonly builtIn: ReadonlyArray<{ apiVersion: string; kind: string }>,
  ) {}

  typing(apiVersion: string, kind: string, crds: CrdCatalog<SourceFile>): KindTyping {
    const builtInCheck = builtInKindCheck(apiVersion, kind);
    if (builtInCheck !== undefined)
      return { by: 'kubernetes', kindSchema: this.kube.kindSchema(apiVersion, kind), manifestCheck: builtInCheck };
    const found = crds.find(apiVersion, kind);
    if (found === undefined) return { by: 'nothing' };
    const kindSchema = crdKindSchema(found.crd, found.version, this.metadata());
    const customResource: CustomResourceSchema = {
      crd: found.crd.name,
      version: found.version.name,
      definitions: kindSchema.definitions,
      openAPIV3Schema: found.version.schema,
      scope: found.crd.scope,
    };
    return {
      by: 'crd',
      crdFile: found.source,
      kindSchema,
      manifestCheck: customResourceCheck(kind, customResource).compile(),
      customResource,
    };
  }

  /** ObjectMeta from a kind generated anyway, else generated once (a few seconds). */
  private metadata(): Record<string, Schema> {
    if (this.objectMeta === undefined) {
      for (const { apiVersion, kind } of this.builtIn) {
        const schema = this.kube.kindSchema(apiVersion, kind);
        this.objectMeta = schema === undefined ? undefined : objectMetaFrom(schema);
        if (this.objectMeta !== undefined) break;
      }
      this.objectMeta ??= objectMetaDefinitions();
    }
    return this.objectMeta;
  }
}
