import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { BundleLoadError } from '../bundle/bundle-file.js';
import type { IndexEntry } from '../bundle/dist-layout.js';
import { loadBundles } from '../bundle/load.js';
import { BundleRegistry, lookupProblem } from '../bundle/registry.js';
import { execute } from '../exec/execute.js';
import { executeBatch, type FindCollection, findInRegistry } from '../exec/execute-batch.js';
import { DEFAULT_API_VERSION } from '../request/request-shape.js';
import { formatManifest, formatManifestList, FORMATS, isFormat, oversizedObjects } from '../manifest/format.js';
import { RenderError } from '../request/problems.js';
import { isPlainObject, toPointer } from '../util/json.js';
import { describeJsonSyntaxError, jsonSyntaxError } from '../util/json-syntax.js';
import { findUnrepresentable } from '../util/unrepresentable.js';
import { CliError, type Io, parseCommandArgs } from './io.js';

/** JSON text, whose number literals can be checked as JSON numbers (YAML's plain words cannot). */
function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

async function readData(file: string, io: Io, what: string): Promise<unknown> {
  let text: string;
  try {
    text = file === '-' ? await io.readStdin() : readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${what} file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  // A .json file is JSON, so YAML does not take `tru` as a word or `["master",]` as a list; text that
  // opens like JSON and is not YAML either is told in JSON's words, not YAML's ("flow sequence items").
  // A byte order mark is not part of the text (YAML skips it too).
  const json = file.endsWith('.json') || /^\uFEFF?\s*[[{]/.test(text) ? jsonSyntaxError(text.replace(/^\uFEFF/, '')) : undefined;
  if (json !== undefined && file.endsWith('.json'))
    throw new CliError(`${what} file ${file} is not valid JSON ${describeJsonSyntaxError(json)}`);
  let data: unknown;
  try {
    // YAML is a superset of JSON, so one parser reads both.
    data = parseYaml(text, { uniqueKeys: true });
  } catch (error) {
    if (json !== undefined) throw new CliError(`${what} file ${file} is not valid JSON ${describeJsonSyntaxError(json)}`);
    throw new CliError(`${what} file ${file} is neither JSON nor YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  // As the server does (json-body.ts): no manifest could carry such a value. YAML has more escapes
  // and number forms than JSON, so every file is walked.
  const unrepresentable = findUnrepresentable(data, isJson(text) ? text : undefined);
  if (unrepresentable !== undefined) throw new CliError(`${what} file ${file}: ${unrepresentable.detail}`);
  return data;
}

export async function runRender(args: string[], io: Io): Promise<number> {
  const { values: options, positionals } = parseCommandArgs(
    args,
    {
      facets: { type: 'string' },
      values: { type: 'string' },
      globalvars: { type: 'string' },
      request: { type: 'string' },
      format: { type: 'string', default: 'json' },
      strict: { type: 'boolean', default: false },
      release: { type: 'string' },
      'api-version': { type: 'string', default: DEFAULT_API_VERSION },
      batch: { type: 'string' },
      bundles: { type: 'string', default: process.env.BUNDLES_DIR ?? 'dist' },
    },
    true,
  );
  if (!isFormat(options.format)) throw new CliError(`--format must be one of ${FORMATS.join(', ')}`);
  const format = options.format;
  let registry: BundleRegistry;
  const loadRegistry = (wanted?: (entry: IndexEntry) => boolean) => {
    try {
      registry = new BundleRegistry(loadBundles(options.bundles!, wanted));
    } catch (error) {
      if (error instanceof BundleLoadError) throw new CliError(error.message);
      throw error;
    }
  };
  const vendorOf = (repository: string) => registry.vendorsOf(repository)[0];
  /**
   * Start-up reads only the bundles of the repositories named (`narrow`); when one is not among
   * them, every bundle, so that what the error lists as known is what exists.
   */
  const loadNamed = (repositories: string[], narrow: (entry: IndexEntry) => boolean) => {
    loadRegistry(narrow);
    if (repositories.some((name) => vendorOf(name) === undefined)) loadRegistry();
  };
  const fail = (error: unknown): number => {
    if (!(error instanceof RenderError)) throw error;
    const more = error.more > 0 ? `  … and ${error.more} more\n` : '';
    io.err(`facetform render: ${error.title}\n${error.problems.map((p) => `  ${p.pointer || '/'}: ${p.detail}\n`).join('')}${more}`);
    return 1;
  };

  if (options.batch !== undefined) {
    if (positionals.length > 0 || options.values !== undefined || options.request !== undefined)
      throw new CliError('--batch FILE holds the whole request: give no <repository>/<collection>, --values or --request with it');
    const body = await readData(options.batch, io, 'batch');
    const named = isPlainObject(body) && Array.isArray(body.resources) ? body.resources : [];
    const repositories = named.flatMap((resource) =>
      isPlainObject(resource) && typeof resource.repository === 'string' ? [resource.repository] : [],
    );
    loadNamed(repositories, (entry) => repositories.includes(entry.repository));
    const find: FindCollection = (resource, pointer) => {
      const vendor = vendorOf(resource.repository);
      if (vendor !== undefined) return findInRegistry(registry, vendor, resource, pointer);
      return lookupProblem(`${pointer}/repository`, {
        missing: 'repository',
        name: resource.repository,
        known: registry.repositoryNames(),
      });
    };
    try {
      const result = executeBatch(find, body, { strict: options.strict, maxResources: Number.MAX_SAFE_INTEGER });
      const oversized = oversizedObjects(result.manifests).map(({ index, detail }) => ({ pointer: `/resources/${index}`, detail }));
      if (oversized.length > 0) throw new RenderError('Object too large for Kubernetes', oversized);
      for (const pointer of result.unknownMembers) io.err(`warning: unknown field ${pointer}\n`);
      for (const id of result.unusedValues) io.err(`warning: values entry ${id} is not read by any resource\n`);
      io.out(
        format === 'json'
          ? JSON.stringify(JSON.parse(formatManifestList(result.manifests, 'json')), null, 2) + '\n'
          : formatManifestList(result.manifests, 'yaml'),
      );
      return 0;
    } catch (error) {
      return fail(error);
    }
  }

  const target = positionals[0];
  if (positionals.length !== 1 || !/^[^/]+\/[^/]+$/.test(target ?? ''))
    throw new CliError('name one <repository>/<collection>, e.g. service-resources/service, or give --batch FILE');
  if ((options.values === undefined) === (options.request === undefined)) throw new CliError('give either --values FILE or --request FILE');

  let body: Record<string, unknown>;
  if (options.request !== undefined) {
    const request = await readData(options.request, io, 'request');
    if (!isPlainObject(request)) throw new CliError(`request file ${options.request} must hold an exec request object`);
    body = { ...request };
  } else {
    body = { values: await readData(options.values!, io, 'values') };
    if (options.globalvars !== undefined) body.globalvars = await readData(options.globalvars, io, 'globalvars');
  }
  if (options.facets !== undefined)
    body.facets = options.facets
      .split(',')
      .map((facet) => facet.trim())
      .filter(Boolean);

  const [repository, collectionName] = target!.split('/') as [string, string];
  const [apiVersion, release] = [options['api-version']!, options.release];
  const find = () => {
    const vendor = vendorOf(repository);
    return vendor === undefined ? undefined : registry.lookup(vendor, repository, apiVersion, collectionName, release);
  };
  // The releases of the API version named (all of them when none is: the latest is one of them).
  loadRegistry(
    (entry) => entry.repository === repository && entry.apiVersion === apiVersion && (release === undefined || entry.release === release),
  );
  let lookup = find();
  if (lookup === undefined || 'missing' in lookup) {
    loadRegistry(); // what the error lists as known is what exists
    lookup = find();
  }
  if (lookup === undefined) throw new CliError(`no repository ${repository}; known: ${registry!.repositoryNames().join(', ')}`);
  if ('missing' in lookup) throw new CliError(`no ${lookup.missing} ${lookup.name} in ${repository}; known: ${lookup.known.join(', ')}`);

  try {
    const result = execute(lookup.found, body, { strict: options.strict });
    const oversized = oversizedObjects([result.manifest]).map(({ detail }) => ({
      pointer: toPointer(['values', result.valuesId]),
      detail,
    }));
    if (oversized.length > 0) throw new RenderError('Object too large for Kubernetes', oversized);
    for (const pointer of result.unknownMembers) io.err(`warning: unknown field ${pointer}\n`);
    io.out(formatManifest(result.manifest, format, { pretty: true }));
    return 0;
  } catch (error) {
    return fail(error);
  }
}
