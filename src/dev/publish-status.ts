/**
 * What the consoles of `facetform dev` are told after a rebuild (server/preview.ts sends it as
 * events): each repository's preview release, lint counts and collection shapes, so that a console
 * reloads what changed.
 */
import { PREVIEW_RELEASE_SUFFIX, type Preview, type PreviewStatus } from '../server/preview.js';
import type { PreviewBuilder } from './preview-builder.js';

/** `generation`: how many registries the server has served, counting the first. */
export function publishStatus(preview: Preview, builder: PreviewBuilder, generation: number): void {
  const repositories: PreviewStatus['repositories'] = [...builder.state.values()].map((repository) => ({
    name: repository.name,
    ...(repository.served === undefined ? {} : { release: repository.served.bundle.repository.release + PREVIEW_RELEASE_SUFFIX }),
    errors: repository.errors,
    warnings: repository.warnings,
    stale: repository.errors > 0,
    collections: repository.shapes,
  }));
  const digests = new Set(
    [...builder.state.values()].flatMap((repository) => (repository.served === undefined ? [] : [repository.served.bundle.digest])),
  );
  preview.publish({ generation, repositories }, digests);
}
