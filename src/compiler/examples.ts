/**
 * A collection's examples, rendered exactly as the server renders requests: each must render, and
 * together they must render every section. What they render is stored in the bundle.
 */
import type { BundleExample } from '../bundle/bundle.js';
import type { CollectionModel } from '../collection/model.js';
import { type Executable, execute } from '../exec/execute.js';
import type { LintReport } from '../lint/report.js';
import { EXEC_REQUEST_FORM } from '../request/request-shape.js';
import type { CollectionRenderPlan, RenderRequest } from '../render/render-plan.js';
import type { NamedFile } from '../repository/load.js';
import { RenderError } from '../request/problems.js';
import { fromPointer, isPlainObject, type JsonObject } from '../util/json.js';

/**
 * Renders every example; with no executable (the input schema does not compile) none is run.
 * Either way, a section no example renders is reported.
 */
export function checkExamples(
  model: CollectionModel,
  plan: CollectionRenderPlan,
  executable: Executable | undefined,
  report: LintReport,
): BundleExample[] {
  const rendered = new Set<number>();
  const run = (example: NamedFile) => (executable === undefined ? [] : checkExample(example, executable, rendered, report));
  const examples = model.source.examples.flatMap(run);
  // Examples that did not run say nothing of the sections they would render.
  if (executable !== undefined) reportUnrendered(model, plan, rendered, report);
  return examples;
}

/** The example as the bundle stores it, or nothing when it does not render; adds the sections it renders to `rendered`. */
function checkExample({ name, file }: NamedFile, executable: Executable, rendered: Set<number>, report: LintReport): BundleExample[] {
  if (file.value === undefined) return [];
  if (!isPlainObject(file.value)) {
    report.error(file, [], 'an example must be a JSON object: an exec request body', EXEC_REQUEST_FORM);
    return [];
  }
  const { $description, ...request } = file.value as JsonObject;
  if ($description !== undefined && typeof $description !== 'string')
    report.error(file, ['$description'], '"$description" must be a string', 'one sentence saying what the example shows');
  try {
    // As the server runs it: the manifest is checked against the kind's own schema too.
    const result = execute(executable, request);
    for (const pointer of result.unknownMembers) {
      report.warning(
        file,
        fromPointer(pointer),
        `unknown field ${pointer}: no placeholder reads it`,
        'remove it, or add a section whose placeholder reads it',
      );
    }
    executable.plan.renderedSections(request as unknown as RenderRequest).forEach((index) => rendered.add(index));
    return [{ name, description: ($description as string | undefined) ?? '', request, manifest: result.manifest }];
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    for (const problem of error.problems) {
      report.error(
        file,
        fromPointer(problem.pointer),
        `example does not render: ${problem.pointer || '/'} ${problem.detail}`,
        'fix the example values, or the section it names',
      );
    }
    return [];
  }
}

function reportUnrendered(model: CollectionModel, plan: CollectionRenderPlan, rendered: ReadonlySet<number>, report: LintReport): void {
  plan.sections.forEach((section, index) => {
    if (rendered.has(index)) return;
    const file = model.sections.find((candidate) => candidate.name === section.name)!.file;
    report.warning(
      file,
      ['facets'],
      `no example of ${plan.collection} renders section ${section.name}`,
      `add an example under ${model.source.dir}/examples/ that selects one of its facets and gives its placeholders values`,
    );
  });
}
