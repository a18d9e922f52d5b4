/**
 * Gateway API (test/fixtures/realworld/gateway-api) added as a template author would: its CRDs in the
 * crds/ of a repository of its own, one collection per kind whose one section writes the whole
 * metadata and spec, and its examples as requests to those collections.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ROOT, tempDir } from './repos.js';

export const GATEWAY_API = path.join(ROOT, 'test/fixtures/realworld/gateway-api');
export const GATEWAY_REPOSITORY = 'gateway-api';
const VENDOR = 'kubernetes-sigs';

/** The exec path of a kind's collection. */
export const gatewayExecPath = (kind: GatewayKind) =>
  `/apis/repos/${VENDOR}/${GATEWAY_REPOSITORY}/v1/resources/collections/${kind.collection}/exec`;

/** Kubernetes' version priority: GA before beta before alpha, then the higher number (v1 > v1beta2 > v1beta1). */
function priority(version: string): number[] {
  const match = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(version);
  if (match === null) return [-1, 0, 0];
  const stage = match[2] === undefined ? 2 : match[2] === 'beta' ? 1 : 0;
  return [stage, Number(match[1]), Number(match[3] ?? 0)];
}
const byPriority = (a: string, b: string) => {
  const [x, y] = [priority(a), priority(b)];
  return y[0]! - x[0]! || y[1]! - x[1]! || y[2]! - x[2]!;
};

export interface GatewayKind {
  kind: string;
  group: string;
  /** The served versions, by Kubernetes' version priority (the first is what the collection renders). */
  versions: string[];
  collection: string;
  variable: string;
}

export interface GatewayExample {
  /** Path below the Gateway API folder, and the document's index in it. */
  file: string;
  index: number;
  manifest: { apiVersion: string; kind: string; metadata: Record<string, unknown>; spec?: unknown; [member: string]: unknown };
}

const yamlFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map((file) => path.join(dir, file));

const documents = (file: string) =>
  parseAllDocuments(readFileSync(file, 'utf8'))
    .map((document) => document.toJS())
    .filter((value) => value !== null && typeof value === 'object');

/** Gateway API's CRDs, each with its file relative to the Gateway API folder. */
export function readGatewayCrds(): Array<{ manifest: Record<string, any>; file: string }> {
  return yamlFiles(path.join(GATEWAY_API, 'config/crd/standard')).flatMap((file) =>
    documents(file).map((manifest) => ({ manifest, file: path.relative(GATEWAY_API, file) })),
  );
}

/** The kinds Gateway API's CRDs define, read from its CRD files. */
export function gatewayKinds(): GatewayKind[] {
  return readGatewayCrds().map(({ manifest: crd }) => {
    const kind = crd.spec.names.kind as string;
    return {
      kind,
      group: crd.spec.group,
      versions: crd.spec.versions
        .filter((version: { served: boolean }) => version.served)
        .map((version: { name: string }) => version.name)
        .sort(byPriority),
      collection: kind.toLowerCase(),
      variable: `__${kind.toUpperCase()}_ID__`,
    };
  });
}

/** Every document of Gateway API's examples (`examples/standard`) or invalid examples (`hack/invalid-examples/standard`) of a kind it defines. */
export function gatewayExamples(folder: 'examples/standard' | 'hack/invalid-examples/standard'): GatewayExample[] {
  const kinds = new Set(gatewayKinds().map((kind) => kind.kind));
  return yamlFiles(path.join(GATEWAY_API, folder)).flatMap((file) =>
    documents(file)
      .map((manifest, index) => ({ file: path.relative(GATEWAY_API, file), index, manifest }))
      .filter(({ manifest }) => kinds.has(manifest.kind)),
  );
}

/**
 * A repos folder with one repository, `gateway-api`: the CRDs in crds/, and per kind a collection
 * whose core section writes apiVersion (the newest served version), kind, metadata and spec.
 */
export function gatewayRepos(): string {
  const repos = tempDir('facetform-gateway-');
  const repository = path.join(repos, GATEWAY_REPOSITORY);
  mkdirSync(path.join(repository, 'crds'), { recursive: true });
  for (const file of yamlFiles(path.join(GATEWAY_API, 'config/crd/standard')))
    writeFileSync(path.join(repository, 'crds', path.basename(file)), readFileSync(file));
  writeFileSync(
    path.join(repository, 'repository.json'),
    JSON.stringify(
      { name: GATEWAY_REPOSITORY, vendor: VENDOR, apiVersion: 'v1', release: '1.0.0', description: "Gateway API's standard kinds." },
      null,
      2,
    ),
  );
  for (const kind of gatewayKinds()) {
    const folder = path.join(repository, kind.collection);
    mkdirSync(path.join(folder, 'sections'), { recursive: true });
    mkdirSync(path.join(folder, 'examples'), { recursive: true });
    const apiVersion = `${kind.group}/${kind.versions[0]}`;
    writeFileSync(
      path.join(folder, 'collection.json'),
      JSON.stringify(
        { name: kind.collection, variable: kind.variable, kind: kind.kind, apiVersion, description: `A ${kind.kind} of Gateway API.` },
        null,
        2,
      ),
    );
    writeFileSync(
      path.join(folder, 'sections/core.json'),
      JSON.stringify(
        {
          $description: `Writes the whole metadata and spec of a ${kind.kind}.`,
          facets: ['master'],
          apiVersion,
          kind: kind.kind,
          metadata: `{{ ${kind.variable}.metadata }}`,
          spec: `{{ ${kind.variable}.spec }}`,
        },
        null,
        2,
      ),
    );
    const example = gatewayExamples('examples/standard').find(
      ({ manifest }) => manifest.kind === kind.kind && manifest.apiVersion === apiVersion,
    );
    if (example !== undefined) writeFileSync(path.join(folder, 'examples/seed.json'), JSON.stringify(requestFor(kind, example), null, 2));
  }
  return repos;
}

/** The exec request that renders an example: its metadata and spec as the values of the kind's variable. */
export function requestFor(kind: GatewayKind, example: GatewayExample) {
  const id = String(example.manifest.metadata.name ?? 'example');
  const { metadata, spec } = example.manifest;
  return {
    $description: `Gateway API's example ${example.file}.`,
    facets: ['master'],
    values: { [id]: { metadata, ...(spec !== undefined ? { spec } : {}) } },
    globalvars: { [kind.variable]: id },
  };
}
