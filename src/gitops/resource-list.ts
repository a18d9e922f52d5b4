/**
 * `facetform krm`: a KRM function (KRM Functions Specification, config.kubernetes.io/v1). Reads a
 * ResourceList, renders its request items and the request files its FacetformGenerator names, and
 * writes a ResourceList: each request item replaced by the manifests it renders, other items as
 * they came, problems as results. Any error: the items go back unchanged, with the results.
 */
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { toKubectlYaml } from '../manifest/kubectl-yaml.js';
import { REQUEST_FILE_API_VERSION } from '../request-file/request-file.js';
import { isPlainObject, type JsonObject } from '../util/json.js';
import { fieldPathOf } from './field-path.js';
import { findingText } from './finding-text.js';
import { GENERATOR_KIND, type GeneratorConfig, parseGeneratorConfig, rendererOf } from './generator-config.js';
import { GitopsError } from './gitops-error.js';
import { errorOfFile, type Finding, renderRequests } from './render-requests.js';
import { isRequestDocument, misnamedRequest } from './request-check.js';
import { type FileProblem, readRequestEntries, type RequestSource } from './request-source.js';

const RESOURCE_LIST_VERSIONS = ['config.kubernetes.io/v1', 'config.kubernetes.io/v1alpha1'];
const PATH = 'config.kubernetes.io/path';
const INDEX = 'config.kubernetes.io/index';
const INTERNAL_PATH = 'internal.config.kubernetes.io/path';
const INTERNAL_INDEX = 'internal.config.kubernetes.io/index';

interface Result {
  message: string;
  severity: 'error' | 'warning' | 'info';
  resourceRef?: { apiVersion: string; kind: string; name: string };
  field?: { path: string };
  file?: { path: string; index?: number };
}

export interface FunctionRun {
  output: string;
  exitCode: number;
  /** The results again as lines for a person: kustomize drops a function's results and shows only its stderr. */
  stderr: string;
}

function resultOf(finding: Finding): Result {
  const result: Result = { message: finding.detail, severity: finding.severity };
  if (finding.request !== undefined) result.resourceRef = finding.request;
  if (finding.pointer !== '') result.field = { path: fieldPathOf(finding.pointer, finding.document) };
  result.file = { path: finding.file };
  return result;
}

const annotationsOf = (item: unknown): Record<string, unknown> => {
  const metadata = isPlainObject(item) && isPlainObject(item.metadata) ? item.metadata : {};
  return isPlainObject(metadata.annotations) ? metadata.annotations : {};
};

/**
 * The functionConfig as a generator config: a FacetformGenerator, or the ConfigMap that `kpt fn eval
 * -- key=value` makes (requests comma-separated, strict "true" or "false"), or none at all.
 */
function configOf(functionConfig: unknown): GeneratorConfig {
  if (functionConfig === undefined || functionConfig === null) return {};
  if (isPlainObject(functionConfig) && functionConfig.kind === 'ConfigMap' && functionConfig.apiVersion === 'v1') {
    const data = isPlainObject(functionConfig.data) ? { ...functionConfig.data } : {};
    const config: Record<string, unknown> = { apiVersion: REQUEST_FILE_API_VERSION, kind: GENERATOR_KIND, ...data };
    if (typeof data.requests === 'string') config.requests = data.requests.split(',').map((entry) => entry.trim()).filter(Boolean);
    if (data.strict === 'true' || data.strict === 'false') config.strict = data.strict === 'true';
    return parseGeneratorConfig(config, 'functionConfig (ConfigMap data)');
  }
  return parseGeneratorConfig(functionConfig, 'functionConfig');
}

/** Where kpt writes a generated manifest: beside its request file, named as kpt names files. */
function placed(manifest: JsonObject, requestFile: string, taken: Map<string, number>): JsonObject {
  const metadata = isPlainObject(manifest.metadata) ? manifest.metadata : {};
  // A name is the caller's text: never a path of its own (`a/../../x`), only one file name.
  const name = `${String(manifest.kind).toLowerCase()}_${String(metadata.name ?? 'unnamed').replace(/[/\\]/g, '_')}.yaml`;
  const file = path.posix.join(path.posix.dirname(requestFile.split(path.sep).join('/')), name);
  const index = taken.get(file) ?? 0;
  taken.set(file, index + 1);
  const annotations = { ...(isPlainObject(metadata.annotations) ? metadata.annotations : {}), [PATH]: file, [INDEX]: String(index), [INTERNAL_PATH]: file, [INTERNAL_INDEX]: String(index) };
  return { ...manifest, metadata: { ...metadata, annotations } } as JsonObject;
}

function write(apiVersion: string, items: unknown[], results: Result[]): string {
  const list: Record<string, unknown> = { apiVersion, kind: 'ResourceList', items };
  if (results.length > 0) list.results = results;
  return toKubectlYaml(list);
}

export async function runResourceList(input: string, base: string, env: NodeJS.ProcessEnv): Promise<FunctionRun> {
  const refuse = (message: string, apiVersion = RESOURCE_LIST_VERSIONS[0]!, items: unknown[] = []): FunctionRun => ({
    output: write(apiVersion, items, [{ message, severity: 'error' }]),
    exitCode: 1,
    stderr: `error: ${message}\n`,
  });
  let list: unknown;
  try {
    list = parseYaml(input, { uniqueKeys: true });
  } catch (error) {
    return refuse(`the input is not a ResourceList: not YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!isPlainObject(list) || list.kind !== 'ResourceList' || !RESOURCE_LIST_VERSIONS.includes(String(list.apiVersion))) {
    return refuse(`the input must be a ResourceList of ${RESOURCE_LIST_VERSIONS.join(' or ')} (KRM Functions Specification), as kustomize and kpt send`);
  }
  const apiVersion = String(list.apiVersion);
  const items = list.items ?? [];
  if (!Array.isArray(items)) return refuse('items must be a list of resources', apiVersion);

  let config: GeneratorConfig;
  let renderer;
  try {
    config = configOf(list.functionConfig);
    renderer = rendererOf(config, base, env);
  } catch (error) {
    if (error instanceof GitopsError) return refuse(error.message, apiVersion, items);
    throw error;
  }

  // Request items, then the files the config names.
  const sources: RequestSource[] = [];
  const sourceOfItem = new Map<number, RequestSource>();
  const itemProblems: FileProblem[] = [];
  items.forEach((item, position) => {
    const fileOf = () => {
      const annotations = annotationsOf(item);
      return String(annotations[INTERNAL_PATH] ?? annotations[PATH] ?? `items[${position}]`);
    };
    const misnamed = misnamedRequest(item);
    if (misnamed !== undefined) itemProblems.push({ file: fileOf(), ...misnamed });
    if (!isRequestDocument(item)) return;
    const annotations = annotationsOf(item);
    const file = fileOf();
    const source = { file, index: Number(annotations[INTERNAL_INDEX] ?? annotations[INDEX] ?? 0), document: item };
    sources.push(source);
    sourceOfItem.set(position, source);
  });
  const read = readRequestEntries(base, config.requests ?? []);
  // kpt gives a folder's files as items too: a file that came as an item is not rendered again.
  const itemFiles = new Set(sources.map((source) => path.normalize(source.file)));
  const named = { ...read, sources: read.sources.filter((source) => !itemFiles.has(path.normalize(source.file))) };
  sources.push(...named.sources);

  const outcome = await renderRequests(sources, renderer, { strict: config.strict ?? false });
  const findings = [...itemProblems.map(errorOfFile), ...named.problems.map(errorOfFile), ...outcome.findings];
  const results = findings.map(resultOf);
  const stderr = findings.map(findingText).join('');
  if (findings.some((finding) => finding.severity === 'error')) return { output: write(apiVersion, items, results), exitCode: 1, stderr };

  const manifestsOf = new Map(outcome.rendered.map((each) => [each.source, each.manifests]));
  const taken = new Map<string, number>();
  const render = (source: RequestSource) => manifestsOf.get(source)!.map((manifest) => placed(manifest, source.file, taken));
  const output = items.flatMap((item, position) => (sourceOfItem.has(position) ? render(sourceOfItem.get(position)!) : [item]));
  output.push(...named.sources.flatMap(render));
  return { output: write(apiVersion, output, results), exitCode: 0, stderr };
}
