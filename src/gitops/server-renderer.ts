/**
 * Renders request files with a facetform server's exec API: the same bodies the exec and batch
 * paths take, answered as JSON and turned back into the request file's pointers. The API key comes
 * from the environment, never from a file kept in Git.
 */
import type { Problem } from '../render/render-error.js';
import { REQUEST_KIND, REQUEST_TARGET_MEMBERS, type RequestFile } from '../request-file/request-file.js';
import { DEFAULT_API_VERSION } from '../exec/execute-batch.js';
import { isPlainObject, type JsonObject } from '../util/json.js';
import { warningTexts } from '../util/warning-header.js';
import { GitopsError } from './gitops-error.js';
import { failed, inSpec, type Rendered, type Renderer, warningsOf } from './renderer.js';
import { chooseVendor, type VendorCatalog } from './vendor-choice.js';

/** Unknown fields and unread values entries from the answer's Warning headers. */
function warningsFromHeader(header: string | null): Problem[] {
  const unknown: string[] = [];
  const unused: string[] = [];
  for (const text of warningTexts(header)) {
    const field = /^unknown field "(.*)"$/.exec(text);
    const entry = /^values entry "(.*)" is not read by any resource$/.exec(text);
    if (field !== null) unknown.push(field[1]!);
    else if (entry !== null) unused.push(entry[1]!);
  }
  return warningsOf(unknown, unused);
}

export class ServerRenderer implements Renderer {
  private readonly catalog: VendorCatalog;
  private vendorList: Promise<string[]> | undefined;
  private readonly repositoriesOf = new Map<string, Promise<string[]>>();

  constructor(
    private readonly base: string,
    private readonly apiKey: string,
  ) {
    this.base = base.replace(/\/+$/, '');
    const repositoriesOf = (vendor: string) => {
      let found = this.repositoriesOf.get(vendor);
      if (found === undefined) this.repositoriesOf.set(vendor, (found = this.get(`/apis/repos/${encodeURIComponent(vendor)}`).then((body) => (body.repositories as Array<{ name: string }>).map((each) => each.name))));
      return found;
    };
    const vendors = () => (this.vendorList ??= this.get('/apis/repos').then((body) => (body.vendors as Array<{ name: string }>).map((each) => each.name)));
    this.catalog = {
      vendors,
      vendorsOf: async (repository) => {
        const all = await vendors();
        const having = await Promise.all(all.map(async (vendor) => ((await repositoriesOf(vendor)).includes(repository) ? vendor : undefined)));
        return having.filter((vendor): vendor is string => vendor !== undefined);
      },
      repositories: async () => [...new Set((await Promise.all((await vendors()).map(repositoriesOf))).flat())].sort(),
    };
  }

  private async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    try {
      return await fetch(this.base + path, { ...init, headers: { 'X-APIKEY': this.apiKey, Accept: 'application/json', ...init.headers } });
    } catch (error) {
      throw new GitopsError(`cannot reach the facetform server at ${this.base}: ${(error as { cause?: Error }).cause?.message ?? (error as Error).message}`);
    }
  }

  /** An answer the request file cannot fix (a refused key, a server error) stops the command. */
  private async refused(response: Response, path: string): Promise<GitopsError> {
    const text = await response.text();
    let detail = text.slice(0, 500);
    try {
      const problem = JSON.parse(text) as { detail?: unknown };
      if (typeof problem.detail === 'string') detail = problem.detail;
    } catch {
      // not problem+json: the text as it came
    }
    return new GitopsError(`the facetform server at ${this.base} answered ${response.status} to ${path}: ${detail}`);
  }

  private async get(path: string): Promise<Record<string, unknown>> {
    const response = await this.fetch(path);
    if (!response.ok) throw await this.refused(response, path);
    return (await response.json()) as Record<string, unknown>;
  }

  async render(request: RequestFile, options: { strict: boolean }): Promise<Rendered> {
    const vendor = await chooseVendor(request, this.catalog);
    if (typeof vendor !== 'string') return failed([vendor]);
    const query = new URLSearchParams({ format: 'json', strict: String(options.strict) });
    let path: string;
    let body: Record<string, unknown>;
    if (request.kind === REQUEST_KIND) {
      const { repository, apiVersion = DEFAULT_API_VERSION, collection, release } = request.spec;
      if (release !== undefined) query.set('release', release);
      path = `/apis/repos/${[vendor, repository, apiVersion].map(encodeURIComponent).join('/')}/resources/collections/${encodeURIComponent(collection)}/exec`;
      body = Object.fromEntries(Object.entries(request.spec).filter(([member]) => !(REQUEST_TARGET_MEMBERS as readonly string[]).includes(member)));
    } else {
      path = `/apis/repos/${encodeURIComponent(vendor)}/exec`;
      const { vendor: _vendor, ...rest } = request.spec;
      body = rest;
    }
    const response = await this.fetch(`${path}?${query}`, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
    if (response.ok) {
      const answer = (await response.json()) as JsonObject;
      const manifests = request.kind === REQUEST_KIND ? [answer] : (answer.items as JsonObject[]);
      return { manifests, problems: [], more: 0, warnings: warningsFromHeader(response.headers.get('warning')) };
    }
    if (response.status === 404 || response.status === 422) {
      const problem = (await response.json()) as { detail?: string; errors?: Problem[]; more?: number };
      // A 404 names what does not exist (vendor, repository, API version, release or collection), not where.
      if (!Array.isArray(problem.errors)) return failed([{ pointer: '/spec', detail: String(problem.detail) }]);
      return failed(problem.errors.filter(isPlainObject).map(inSpec), typeof problem.more === 'number' ? problem.more : 0);
    }
    throw await this.refused(response, path);
  }
}
