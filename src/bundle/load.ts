/**
 * Loading bundles from dist/: every bundle is read (bundle-file.ts checks its digest), and each
 * collection compiled into a render plan and an input validator once, here, so that requests only run them.
 */
import path from 'node:path';
import { builtInKindCheck, customResourceCheck } from '../crd/crd-check.js';
import type { ManifestCheck } from '../manifest/kube-check.js';
import { CollectionRenderPlan } from '../render/render-plan.js';
import { InputValidator } from '../schema/input-validator.js';
import type { Bundle, BundleCollection } from './bundle.js';
import { BundleLoadError, readBundleFile } from './bundle-file.js';
import { type IndexEntry, readIndexFile } from './dist-layout.js';

export interface LoadedCollection {
  bundle: Bundle;
  /** The bundle.json it was loaded from; its schemas/ and types/ lie beside it. */
  bundleFile: string;
  collection: BundleCollection;
  plan: CollectionRenderPlan;
  validator: InputValidator;
  /** The kind's own schema, checked on every rendered manifest; absent for kinds without a model. */
  manifestCheck: ManifestCheck | undefined;
}

export interface LoadedBundle {
  bundle: Bundle;
  /** Where it was read from. */
  file: string;
  collections: Map<string, LoadedCollection>;
}

export function loadCollection(bundle: Bundle, collection: BundleCollection, bundleFile: string): LoadedCollection {
  return {
    bundle,
    bundleFile,
    collection,
    plan: new CollectionRenderPlan({ collection: collection.name, variable: collection.variable, sections: collection.sections }),
    validator: new InputValidator(collection.schema),
    manifestCheck:
      collection.customResource === undefined
        ? builtInKindCheck(collection.apiVersion, collection.kind)
        : customResourceCheck(collection.kind, collection.customResource),
  };
}

export function loadBundleFile(file: string): LoadedBundle {
  const bundle = readBundleFile(file);
  const collections = new Map<string, LoadedCollection>();
  try {
    for (const collection of bundle.collections) collections.set(collection.name, loadCollection(bundle, collection, file));
  } catch (error) {
    // A bundle whose digest matches was written by a build; this guards against one that was not.
    throw new BundleLoadError(file, `cannot be compiled: ${(error as Error).message}`);
  }
  return { bundle, file, collections };
}

/**
 * Loads the bundles the index of `distDir` lists: every one, or those `wanted` picks (a command
 * that renders one repository spares reading and digesting the others at start-up).
 */
export function loadBundles(distDir: string, wanted: (entry: IndexEntry) => boolean = () => true): LoadedBundle[] {
  return readIndexFile(distDir)
    .bundles.filter(wanted)
    .map((entry) => {
      const loaded = loadBundleFile(path.join(distDir, entry.path));
      if (loaded.bundle.digest !== entry.digest) {
        throw new BundleLoadError(loaded.file, `digest ${loaded.bundle.digest} differs from the index's ${entry.digest}`);
      }
      return loaded;
    });
}
