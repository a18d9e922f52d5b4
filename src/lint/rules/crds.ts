/** Rules for a repository's CRDs (`crds/`): each a valid, structural apiextensions.k8s.io/v1 CRD whose CEL rules compile. */
import { CelRules } from '../../crd/cel-rules.js';
import { CrdCatalog, type Crd, readCrd, servedKinds } from '../../crd/crd.js';
import type { RepositorySource } from '../../repository/load.js';
import type { SourceFile } from '../../repository/source-file.js';
import { fromPointer } from '../../util/json.js';
import type { LintReport } from '../report.js';

export interface LintedCrds {
  /** The CRDs that read cleanly, by the kinds they serve. */
  catalog: CrdCatalog<SourceFile>;
  /** Kinds named by CRD files with errors: a collection of one is told to fix that file. */
  broken: Map<string, SourceFile>;
}

/** Every problem of every CRD file is reported; the clean ones type collections. */
export function lintCrds(repository: RepositorySource, report: LintReport): LintedCrds {
  const valid: Array<{ crd: Crd; source: SourceFile }> = [];
  const broken = new Map<string, SourceFile>();
  for (const { file } of repository.crds) {
    if (file.value === undefined) continue; // the syntax rule reports it
    const { crd, problems } = readCrd(file.value);
    for (const problem of problems) report.error(file, fromPointer(problem.pointer), problem.message, problem.fix);
    const named = crd?.kind ?? (file.value as { spec?: { names?: { kind?: unknown } } }).spec?.names?.kind;
    if (problems.length > 0 && typeof named === 'string') broken.set(named, file);
    if (crd === undefined) continue;
    let compiles = problems.length === 0;
    for (const { version } of servedKinds(crd)) {
      const rules = CelRules.compile(version.schema, version.schemaPointer);
      for (const problem of rules.problems) report.error(file, fromPointer(problem.pointer), problem.message, problem.fix);
      // What cannot be checked here is said once, at build time, where the rule is written. Transition
      // rules that compile need no word: a create (an answer) has no old object for them, and they are
      // checked when a release is judged against the one before it.
      for (const skipped of rules.skipped) {
        if (skipped.transition)
          report.warning(
            file,
            fromPointer(skipped.pointer),
            `transition rule ${JSON.stringify(skipped.rule)} is not checked when a release is judged against the one before it: ${skipped.reason}`,
            'the API server checks it when the resource is updated',
          );
        else
          report.warning(
            file,
            fromPointer(skipped.pointer),
            `rule ${JSON.stringify(skipped.rule)} is not checked on answers: ${skipped.reason}`,
            'the API server checks it when the resource is applied',
          );
      }
      if (rules.problems.length > 0) compiles = false;
    }
    if (compiles) valid.push({ crd, source: file });
    else broken.set(crd.kind, file);
  }
  const catalog = new CrdCatalog(valid);
  for (const conflict of catalog.conflicts) {
    report.error(
      conflict.source,
      ['spec', 'names', 'kind'],
      `${conflict.apiVersion} ${conflict.kind} is already defined by ${conflict.taken.path}`,
      'keep one CRD per kind: remove or rename one of the two',
    );
  }
  return { catalog, broken };
}
