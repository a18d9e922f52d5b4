/** Rules for a collection's examples that need no render: each is an exec request body. */
import type { CollectionModel } from '../../collection/model.js';
import { EXEC_REQUEST_FORM, execRequestProblems } from '../../request/request-shape.js';
import { fromPointer, isPlainObject, type JsonObject } from '../../util/json.js';
import type { LintReport } from '../report.js';

/** The hint for an example that is not an exec request body. */

/**
 * For a collection whose sections have errors, so its examples cannot be rendered: their own shape
 * can still be checked, so that one run reports every problem.
 */
export function lintExampleShapes(collection: CollectionModel, report: LintReport): void {
  for (const { file } of collection.source.examples) {
    if (file.value === undefined) continue;
    const { $description: _description, ...request } = isPlainObject(file.value) ? (file.value as JsonObject) : { request: file.value };
    for (const problem of execRequestProblems(isPlainObject(file.value) ? request : file.value)) {
      report.error(
        file,
        fromPointer(problem.pointer),
        `example is not an exec request: ${problem.pointer || '/'} ${problem.detail}`,
        EXEC_REQUEST_FORM,
      );
    }
  }
}
