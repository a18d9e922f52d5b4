/**
 * Every example of the shipped collections, rendered from the built bundles: the build's consistency with
 * exec, and the check by kubernetes-models or a CRD. Not golden: the stored manifest and the snapshots
 * under test/golden/ both come from execute(). The goldens independent of the product are
 * golden-reference.test.ts (a reference renderer from the contract, which also checks test/golden/) and
 * golden-hand-checked.test.ts (manifests written by hand).
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBundles, type LoadedBundle } from '../src/bundle/load.js';
import { execute } from '../src/exec/execute.js';
import { checkManifest } from '../src/manifest/kube-check.js';
import { buildInto } from './helpers/build.js';
import { SHIPPED_REPOS, repositoriesIn } from './helpers/repos.js';

let bundles: LoadedBundle[];
beforeAll(async () => {
  bundles = loadBundles(await buildInto(SHIPPED_REPOS));
}, 60_000);

describe('shipped repositories', () => {
  it('build into one bundle per repository with every collection on disk, the seven of the contract among them', () => {
    const names = bundles.map((loaded) => `${loaded.bundle.repository.name}: ${[...loaded.collections.keys()].join(', ')}`);
    expect(names).toEqual(repositoriesIn().map((repository) => `${repository.name}: ${repository.collections.join(', ')}`));
    const collections = bundles.flatMap((loaded) => [...loaded.collections.keys()]);
    expect(collections).toEqual(
      expect.arrayContaining(['service', 'endpoints', 'ingress', 'configmap', 'secret', 'persistent-volume', 'persistent-volume-claim']),
    );
  });

  it('render every example as the build stored it (build consistency, not golden), kubernetes-models or its CRD accepting it', async () => {
    let count = 0;
    for (const loaded of bundles) {
      for (const [name, collection] of loaded.collections) {
        expect(collection.collection.examples.map((example) => example.name)).toContain('seed');
        for (const example of collection.collection.examples) {
          const { manifest, unknownMembers } = execute(collection, example.request);
          expect(unknownMembers).toEqual([]);
          // Build consistency: the build stored this manifest from execute() too, so this cannot catch a render bug.
          expect(manifest).toEqual(example.manifest);
          if (collection.collection.customResource === undefined) {
            expect(await checkManifest(manifest)).toEqual({ checked: true, errors: [] });
          } else {
            // A custom resource has no kubernetes-models model: its CRD's schema and CEL rules check it.
            expect(collection.manifestCheck, `${name} is checked by its CRD`).toBeDefined();
            expect(collection.manifestCheck!.problems(manifest)).toEqual([]);
          }
          await expect(JSON.stringify(manifest, null, 2) + '\n').toMatchFileSnapshot(
            path.join('golden', loaded.bundle.repository.name, name, `${example.name}.json`),
          );
          count++;
        }
      }
    }
    expect(count).toBeGreaterThanOrEqual(20);
  });

  it('render every section of every collection in at least one example', () => {
    for (const loaded of bundles) {
      for (const collection of loaded.collections.values()) {
        const rendered = new Set(
          collection.collection.examples.flatMap((example) => collection.plan.renderedSections(example.request as never)),
        );
        expect(
          [...rendered].sort((a, b) => a - b),
          collection.collection.name,
        ).toEqual(collection.plan.sections.map((_, index) => index));
      }
    }
  });
});
