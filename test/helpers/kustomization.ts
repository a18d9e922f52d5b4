/**
 * What a kustomize build of an example folder must print, read from the folder's own files: the exec
 * API's manifests for the request files its generator names, and its plain resources, each with the
 * kustomization's namespace and labels. Kustomize writes its own YAML (sorted keys), so builds are
 * compared as data, sorted by kind and name.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'glob';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { execAnswer, manifestsOf, readRequestFile } from './gitops.js';
import { tempDir } from './repos.js';
import type { TestServer } from './server.js';

const readYaml = (file: string): any => parseYaml(readFileSync(file, 'utf8'));
const byKindAndName = (a: any, b: any) => `${a.kind}/${a.metadata.name}`.localeCompare(`${b.kind}/${b.metadata.name}`);

export const kustomizationOf = (dir: string): any => readYaml(path.join(dir, 'kustomization.yaml'));

/** The first generator's file of the kustomization in `dir`: the FacetformGenerator. */
export const generatorOf = (dir: string): any => readYaml(path.join(dir, kustomizationOf(dir).generators[0]));

/** The request files the generator names (files or patterns, relative to `dir`), in order. */
export const requestFilesOf = (dir: string): string[] =>
  generatorOf(dir).requests.flatMap((entry: string) => globSync(entry, { cwd: dir, absolute: true }).sort());

/** What the kustomization's namespace and labels transforms do to a resource. */
function transformed(kustomization: any, manifest: any): any {
  const labels = Object.assign({}, ...kustomization.labels.map((entry: any) => entry.pairs));
  return {
    ...manifest,
    metadata: { ...manifest.metadata, namespace: kustomization.namespace, labels: { ...manifest.metadata.labels, ...labels } },
  };
}

/** The resources a build of `dir` must give, sorted by kind and name. */
export async function expectedBuild(server: TestServer, dir: string): Promise<any[]> {
  const kustomization = kustomizationOf(dir);
  const manifests: any[] = [];
  for (const file of requestFilesOf(dir)) {
    const request = readRequestFile(file);
    manifests.push(...manifestsOf(request, await execAnswer(server, request, 'json')));
  }
  manifests.push(...kustomization.resources.map((file: string) => readYaml(path.join(dir, file))));
  return manifests.map((manifest) => transformed(kustomization, manifest)).sort(byKindAndName);
}

/** The resources a build printed, sorted by kind and name. */
export const builtResources = (stdout: string): any[] =>
  parseAllDocuments(stdout)
    .map((document) => document.toJS())
    .sort(byKindAndName);

/**
 * A copy of the example folder `dir` with `generator` as its generator file (the copy is elsewhere:
 * paths out of the folder must be absolute) and the facet addon:nothing, which no collection has,
 * added to the request of requests/app-config.yaml.
 */
export function brokenCopy(dir: string, generator: unknown): string {
  const copy = tempDir();
  cpSync(dir, copy, { recursive: true });
  writeFileSync(path.join(copy, kustomizationOf(dir).generators[0]), JSON.stringify(generator));
  const request = readRequestFile(path.join(copy, 'requests/app-config.yaml'));
  request.spec.facets.push('addon:nothing');
  writeFileSync(path.join(copy, 'requests/app-config.yaml'), JSON.stringify(request));
  return copy;
}
