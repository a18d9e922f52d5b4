/** Renders request files offline, from a folder of bundles, with the exec code the server runs. */
import { BundleLoadError } from '../bundle/bundle-file.js';
import { loadBundles } from '../bundle/load.js';
import { BundleRegistry, lookupProblem } from '../bundle/registry.js';
import { execute } from '../exec/execute.js';
import { executeBatch, type FindCollection, findInRegistry } from '../exec/execute-batch.js';
import { DEFAULT_API_VERSION } from '../request/request-shape.js';
import { oversizedObjects } from '../manifest/format.js';
import { RenderError, type Problem } from '../request/problems.js';
import { toPointer } from '../util/json.js';
import { REQUEST_KIND, REQUEST_TARGET_MEMBERS, type RequestFile } from '../request-file/request-file.js';
import { GitopsError } from './gitops-error.js';
import { failed, inSpec, type Rendered, type Renderer, warningsOf } from './renderer.js';
import { chooseVendor, type VendorCatalog } from './vendor-choice.js';

/** No batch limit offline: the server's limits guard a shared process, not a build. */
const UNLIMITED_RESOURCES = Number.MAX_SAFE_INTEGER;


export class BundleRenderer implements Renderer {
  private readonly catalog: VendorCatalog;

  constructor(private readonly registry: BundleRegistry) {
    this.catalog = {
      vendors: async () => registry.vendors(),
      vendorsOf: async (repository) => registry.vendorsOf(repository),
      repositories: async () => registry.repositoryNames(),
    };
  }

  static fromFolder(folder: string): BundleRenderer {
    try {
      return new BundleRenderer(new BundleRegistry(loadBundles(folder)));
    } catch (error) {
      if (error instanceof BundleLoadError) throw new GitopsError(`cannot load the bundles of ${folder}: ${error.message}`);
      throw error;
    }
  }

  async render(request: RequestFile, options: { strict: boolean }): Promise<Rendered> {
    const vendor = await chooseVendor(request, this.catalog);
    if (typeof vendor !== 'string') return failed([vendor]);
    if (this.registry.repositories(vendor) === undefined) return failed([lookupProblem('/spec/vendor', { missing: 'vendor', name: vendor, known: this.registry.vendors() })]);
    try {
      if (request.kind === REQUEST_KIND) {
        const { repository, apiVersion = DEFAULT_API_VERSION, collection, release } = request.spec;
        const lookup = this.registry.lookup(vendor, repository, apiVersion, collection, release);
        if ('missing' in lookup) return failed([lookupProblem(`/spec/${lookup.missing}`, lookup)]);
        const body = Object.fromEntries(Object.entries(request.spec).filter(([member]) => !(REQUEST_TARGET_MEMBERS as readonly string[]).includes(member)));
        const result = execute(lookup.found, body, options);
        // As the exec API answers a 422: no object over the API server's limit is written.
        const oversized = oversizedObjects([result.manifest]).map(({ detail }) => ({ pointer: toPointer(['spec', 'values', result.valuesId]), detail }));
        if (oversized.length > 0) return failed(oversized);
        return { manifests: [result.manifest], problems: [], more: 0, warnings: warningsOf(result.unknownMembers) };
      }
      const find: FindCollection = (resource, pointer) => findInRegistry(this.registry, vendor, resource, pointer);
      const { vendor: _vendor, ...body } = request.spec;
      const result = executeBatch(find, body, { strict: options.strict, maxResources: UNLIMITED_RESOURCES });
      const oversized = oversizedObjects(result.manifests).map(({ index, detail }) => ({ pointer: `/spec/resources/${index}`, detail }));
      if (oversized.length > 0) return failed(oversized);
      return { manifests: result.manifests, problems: [], more: 0, warnings: warningsOf(result.unknownMembers, result.unusedValues) };
    } catch (error) {
      if (!(error instanceof RenderError)) throw error;
      return failed(error.problems.map(inSpec), error.more);
    }
  }
}
