/**
 * The rule for what types a collection's kind: a built-in Kubernetes kind or a CRD of the
 * repository, or nothing, which the collection must say it wants ("untyped": true).
 */
import type { CollectionModel } from '../../collection/model.js';
import type { ManifestCheck } from '../../manifest/kube-check.js';
import type { CollectionRenderPlan } from '../../render/render-plan.js';
import type { SourceFile } from '../../repository/source-file.js';
import type { KindSchema } from '../../kubernetes/kind-schema.js';
import type { LintReport } from '../report.js';

/** A collection the build could compile: its model with what types its kind and its render plan. */
export interface TypedCollection {
  model: CollectionModel;
  /** What the build found to type the kind (compiler/kind-typing.ts decides it). */
  typing: {
    by: 'kubernetes' | 'crd' | 'nothing';
    crdFile?: SourceFile;
    kindSchema?: KindSchema | undefined;
    manifestCheck?: ManifestCheck;
  };
  /** CRD files with errors, by the kind each names. */
  brokenCrds: ReadonlyMap<string, SourceFile>;
  plan: CollectionRenderPlan;
}

export function lintKindTyping({ model, typing, brokenCrds }: TypedCollection, report: LintReport): void {
  const declaration = model.declaration as { kind: string; apiVersion: string; untyped?: boolean };
  const file = model.source.file;
  // A CRD that names the kind but has errors of its own: those are the ones to fix, and lint lists them.
  const brokenCrd = brokenCrds.get(declaration.kind);
  if (typing.by === 'nothing' && declaration.untyped !== true && brokenCrd !== undefined) {
    report.error(
      file,
      ['kind'],
      `${declaration.kind} is defined by ${brokenCrd.path}, which has errors`,
      'fix the errors lint lists in that file',
    );
  } else if (typing.by === 'nothing' && declaration.untyped !== true) {
    report.error(
      file,
      ['kind'],
      `${declaration.apiVersion} ${declaration.kind} is neither a built-in Kubernetes kind nor served by a CRD in ${model.repository.name}/crds/: ` +
        'nothing types its values or checks its answers',
      `add the CustomResourceDefinition that defines it to ${model.repository.dir}/crds/, or, to render it unchecked, write "untyped": true`,
    );
  }
  if (typing.by !== 'nothing' && declaration.untyped === true) {
    const by = typing.by === 'crd' ? typing.crdFile!.path : 'the Kubernetes API';
    report.warning(
      file,
      ['untyped'],
      `"untyped" has no effect: ${declaration.kind} is typed by ${by}, and its answers are checked`,
      'remove "untyped"',
    );
  }
}
