/**
 * Rules that ask Kubernetes' own schema about what the sections write themselves (CONTRACT §5): a
 * fixed value the API server refuses, or an interpolated placeholder (always a string) where the
 * member is not a string, fails every request, so it is a build error and never a caller's 422.
 */
import type { ManifestCheck } from '../../manifest/kube-check.js';
import type { CollectionRenderPlan } from '../../render/render-plan.js';
import { lookup } from '../../request/resolve.js';
import { memberType, resolveRef } from '../../kubernetes/kind-definitions.js';
import type { KindSchema, Schema } from '../../kubernetes/kind-schema.js';
import type { PlaceholderSite } from '../../template/body.js';
import { fromPointer, isPathPrefix, isPlainObject, ownMember, toPointer } from '../../util/json.js';
import type { CollectionModel, SectionModel } from '../../collection/model.js';
import type { LintReport } from '../report.js';

/**
 * Renders each facet with no values at all, so that only the sections' own content is left, and
 * checks it. A problem where a placeholder lands (or would fill a missing member) is the caller's
 * to fix at request time; every other one is the template's.
 */
export function lintFixedValues(context: CollectionModel, plan: CollectionRenderPlan, check: ManifestCheck, report: LintReport): void {
  const reported = new Set<string>();
  for (const facets of [[], ...plan.facets.map((facet) => [facet])]) {
    const selection = plan.select(facets);
    const manifest = selection.render({}, { id: '', problems: [] });
    for (const problem of check.problems(manifest)) {
      const at = fromPointer(problem.pointer);
      const fromValues = selection.sites.some((site) => isPathPrefix(site.at, at) || isPathPrefix(at, site.at));
      // A required member another section writes is the caller's choice of facets, said at request time.
      const chosenByFacets = lookup(manifest, at) === undefined && plan.facetsWriting(at).length > 0;
      if (fromValues || chosenByFacets || reported.has(problem.pointer)) continue;
      reported.add(problem.pointer);
      const section = writerOf(
        context,
        selection.included.map((index) => plan.sections[index]!.name),
        at,
      );
      if (section === undefined) continue;
      report.error(
        section.file,
        deepestWritten(section, at),
        `the ${String(manifest.kind)} this section renders has ${problem.pointer} that Kubernetes refuses: ${problem.detail}`,
        'write a value the Kubernetes API accepts there (kubectl explain shows the field), or make it a placeholder',
      );
    }
  }
}

/** An interpolated placeholder renders a string; where Kubernetes wants a number or a boolean, it can never be right. */
export function lintInterpolatedLandings(section: SectionModel, sites: PlaceholderSite[], kind: KindSchema, report: LintReport): void {
  for (const site of sites) {
    if (site.whole) continue;
    const landing = memberType(kind, site.at);
    if (landing === undefined || acceptsString(landing.schema, kind.definitions)) continue;
    report.error(
      section.file,
      site.at,
      `text with a placeholder always renders a string, but Kubernetes wants ${describe(landing.schema, kind.definitions)} at ${toPointer(site.at)}`,
      'make the placeholder the whole value ("{{ VAR.path }}"), so that the caller\'s value keeps its JSON type',
    );
  }
}

function acceptsString(schema: Schema, definitions: Record<string, Schema>): boolean {
  const resolved = resolveRef(schema, definitions);
  const types = resolved.type === undefined ? undefined : ([] as unknown[]).concat(resolved.type);
  if (types !== undefined) return types.includes('string');
  const union = [resolved.anyOf, resolved.oneOf].find(Array.isArray) as Schema[] | undefined;
  return union === undefined || union.some((part) => acceptsString(part, definitions));
}

function describe(schema: Schema, definitions: Record<string, Schema>): string {
  const resolved = resolveRef(schema, definitions);
  return [resolved.type, resolved.format].filter((part) => part !== undefined).join(' ') || 'another type';
}

/** The included section that writes the deepest part of `at`: the file to point at. */
function writerOf(context: CollectionModel, names: string[], at: string[]): SectionModel | undefined {
  let best: { section: SectionModel; depth: number } | undefined;
  for (const section of context.sections) {
    if (!names.includes(section.name) || section.body === undefined) continue;
    const depth = deepestWritten(section, at).length;
    if (best === undefined || depth > best.depth) best = { section, depth };
  }
  return best?.section;
}

/** The longest prefix of `at` that the section's own content has. */
function deepestWritten(section: SectionModel, at: string[]): string[] {
  let node: unknown = section.body;
  let depth = 0;
  for (const segment of at) {
    const next = isPlainObject(node) || Array.isArray(node) ? ownMember(node, segment) : undefined;
    if (next === undefined || (depth === 0 && segment.startsWith('$'))) break;
    node = next;
    depth++;
  }
  return at.slice(0, depth);
}
