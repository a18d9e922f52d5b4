/**
 * Loading bundles from dist/: every bundle is read (bundle-file.ts checks its digest), and each
 * collection compiled into a render plan and an input validator once, here, so that requests only run them.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ManifestCheck } from '../manifest/kube-check.js';
import { CollectionRenderPlan } from '../render/render-plan.js';
import { InputValidator } from '../schema/input-validator.js';
import type { Bundle, BundleCollection } from './bundle.js';
import { BundleLoadError, readBundleFile } from './bundle-file.js';
import { INDEX_FILE, type DistIndex } from './dist-layout.js';

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
        ? ManifestCheck.forKind(collection.apiVersion, collection.kind)
        : ManifestCheck.forCustomResource(collection.kind, collection.customResource),
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

/** Loads every bundle the index of `distDir` lists. */
export function loadBundles(distDir: string): LoadedBundle[] {
  const indexFile = path.join(distDir, INDEX_FILE);
  if (existsSync(distDir) && !statSync(distDir).isDirectory())
    throw new BundleLoadError(distDir, 'is not a folder of bundles: name the folder the build writes (dist/)');
  if (!existsSync(indexFile)) {
    throw new BundleLoadError(indexFile, 'not found; build the bundles first with `npm run build`');
  }
  let index: DistIndex;
  try {
    index = JSON.parse(readFileSync(indexFile, 'utf8')) as DistIndex;
  } catch (error) {
    throw new BundleLoadError(indexFile, `cannot be read as JSON (${(error as Error).message})`);
  }
  const entries = (index as { bundles?: unknown } | null)?.bundles;
  if (
    !Array.isArray(entries) ||
    !entries.every((entry) => typeof entry?.path === 'string' && typeof entry?.digest === 'string' && !entry.path.split('/').includes('..'))
  ) {
    throw new BundleLoadError(
      indexFile,
      'is not a facetform index: it needs a bundles list of { path, digest } inside dist/; rebuild it with `npm run build`',
    );
  }
  return (entries as DistIndex['bundles']).map((entry) => {
    const loaded = loadBundleFile(path.join(distDir, entry.path));
    if (loaded.bundle.digest !== entry.digest) {
      throw new BundleLoadError(loaded.file, `digest ${loaded.bundle.digest} differs from the index's ${entry.digest}`);
    }
    return loaded;
  });
}
