/**
 * Renders request files with a facetform server's exec API: the same bodies the exec and batch
 * paths take, answered as JSON and turned back into the request file's pointers. The API key comes
 * from the environment, never from a file kept in Git.
 */
import type { Problem } from '../request/problems.js';
import { REQUEST_KIND, REQUEST_TARGET_MEMBERS, type RequestFile } from '../request-file/request-file.js';
import { DEFAULT_API_VERSION } from '../request/request-shape.js';
import { isPlainObject, type JsonObject } from '../util/json.js';
import { warningTexts } from '../util/warning-header.js';
import { GitopsError } from './gitops-error.js';
import { failed, inSpec, type Rendered, type Renderer, warningsOf } from './renderer.js';
import { chooseVendor, type VendorCatalog } from './vendor-choice.js';

const isManifest = (value: unknown): value is JsonObject => isPlainObject(value) && typeof value.apiVersion === 'string' && typeof value.kind === 'string';

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
      if (found === undefined) this.repositoriesOf.set(vendor, (found = this.get(`/apis/repos/${encodeURIComponent(vendor)}`).then((body) => this.names(body.repositories, `/apis/repos/${vendor}`))));
      return found;
    };
    const vendors = () => (this.vendorList ??= this.get('/apis/repos').then((body) => this.names(body.vendors, '/apis/repos')));
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
      // A redirect is never followed: it would take the key to wherever it points.
      return await fetch(this.base + path, { ...init, redirect: 'error', headers: { 'X-APIKEY': this.apiKey, Accept: 'application/json', ...init.headers } });
    } catch (error) {
      throw new GitopsError(`cannot reach the facetform server at ${this.base}: ${this.withoutKey((error as { cause?: Error }).cause?.message ?? (error as Error).message)}`);
    }
  }

  /** Text from the server, which may echo what it was sent, without the key. */
  private withoutKey(text: string): string {
    return text.split(this.apiKey).join('***');
  }

  /** An answer the request file cannot fix (a refused key, a server error, a body that is not facetform's) stops the command. */
  private async refused(response: Response, path: string, what?: string): Promise<GitopsError> {
    const text = await response.text().catch(() => '');
    let detail = what ?? text.slice(0, 500);
    try {
      const problem = JSON.parse(text) as { detail?: unknown };
      if (what === undefined && typeof problem?.detail === 'string') detail = problem.detail;
    } catch {
      // not problem+json: the text as it came
    }
    return new GitopsError(`the facetform server at ${this.base} answered ${response.status} to ${path}: ${this.withoutKey(detail)}`);
  }

  /** The answer's JSON when `accept` takes it, else an error saying the server is not facetform's (or not this version). */
  private async json<T>(response: Response, path: string, accept: (body: unknown) => body is T): Promise<T> {
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => undefined);
    if (!accept(body)) throw await this.refused(response, path, `an answer that is not what a facetform server sends (${response.headers.get('content-type') ?? 'no Content-Type'})`);
    return body;
  }

  /** The names of a discovery list, or an error when the list is not one. */
  private names(list: unknown, path: string): string[] {
    if (Array.isArray(list) && list.every((each) => isPlainObject(each) && typeof each.name === 'string')) return list.map((each) => each.name as string);
    throw new GitopsError(`the facetform server at ${this.base} answered ${path} with a body that is not what a facetform server sends`);
  }

  private async get(path: string): Promise<Record<string, unknown>> {
    const response = await this.fetch(path);
    if (!response.ok) throw await this.refused(response, path);
    return this.json(response, path, isPlainObject);
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
      const answer = await this.json(response, path, isPlainObject);
      const manifests = request.kind === REQUEST_KIND ? [answer] : answer.items;
      if (!Array.isArray(manifests) || !manifests.every(isManifest)) throw await this.refused(response, path, 'a body that is not a manifest (or a List of them) as a facetform server sends');
      return { manifests, problems: [], more: 0, warnings: warningsFromHeader(response.headers.get('warning')) };
    }
    if (response.status === 404 || response.status === 422) {
      const problem = (await this.json(response, path, isPlainObject)) as { detail?: string; errors?: Problem[]; more?: number };
      // A 404 names what does not exist (vendor, repository, API version, release or collection), not where.
      if (!Array.isArray(problem.errors)) return failed([{ pointer: '/spec', detail: String(problem.detail) }]);
      return failed(problem.errors.filter(isPlainObject).map(inSpec), typeof problem.more === 'number' ? problem.more : 0);
    }
    throw await this.refused(response, path);
  }
}
