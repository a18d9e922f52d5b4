/** Rules for every file of a repository, whatever it holds: JSON syntax, values no answer can carry, repeated members. */
import { repositoryFiles, type RepositoryModel } from '../../collection/model.js';
import { fromPointer } from '../../util/json.js';
import { findUnrepresentable } from '../../util/unrepresentable.js';
import type { LintReport } from '../report.js';

export function lintFiles(model: RepositoryModel, report: LintReport): void {
  for (const file of repositoryFiles(model.source)) {
    // The first syntax error only: the ones after it are mostly its echoes.
    const [problem] = file.syntaxErrors;
    if (problem !== undefined) report.error(file, problem, problem.message, 'fix the JSON syntax at this position, then run lint again');
    // What no answer can carry (a number beyond a double, a lone surrogate) would fail every request.
    const unrepresentable = findUnrepresentable(file.value);
    if (unrepresentable !== undefined)
      report.error(file, fromPointer(unrepresentable.pointer), unrepresentable.detail, 'write a value JSON and YAML answers can carry');
    for (const duplicate of file.duplicateMembers()) {
      report.error(
        file,
        duplicate.position,
        `member "${duplicate.name}" appears twice in one object; JSON keeps only the last`,
        'merge the two into one member',
      );
    }
  }
}
