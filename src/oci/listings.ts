/**
 * The registry's lists: a repository's tags and the catalog of repositories, each read page by page
 * within the bounds of a Listing (bounded-read.ts), its entries checked to be names.
 */
import { Listing } from './bounded-read.js';
import { RegistryError } from './registry-errors.js';
import type { RegistryHttp } from './registry-http.js';

/** Every tag of a repository, following pagination; none when the repository does not exist. */
export async function tags(http: RegistryHttp, name: string): Promise<string[]> {
  const tags: string[] = [];
  const listing = new Listing(http.registry, http.base, `the list of the tags of ${name}`, http.url(name, 'tags/list'), 'tags');
  while (listing.url !== undefined) {
    const response = await http.request(`repository:${name}:pull`, 'GET', listing.url);
    if (response.status === 404) {
      await response.body?.cancel();
      return tags;
    }
    if (!response.ok) throw await http.failure(`listing the tags of ${name}`, response);
    const page = (await listing.page(response)) as { tags?: unknown };
    if (page.tags !== null && page.tags !== undefined && !(Array.isArray(page.tags) && page.tags.every((tag) => typeof tag === 'string')))
      throw new RegistryError(`${http.registry} answered the tags of ${name} with something that is not a list of tags`);
    for (const tag of (page.tags as string[] | null) ?? []) tags.push(tag); // not push(...): a page of 100,000 overflows the stack
  }
  return tags;
}

/** Every repository the registry lists (`/v2/_catalog`), following pagination. */
export async function catalog(http: RegistryHttp): Promise<string[]> {
  const names: string[] = [];
  const listing = new Listing(
    http.registry,
    http.base,
    'the list of its repositories (/v2/_catalog)',
    `${http.base}/v2/_catalog`,
    'repositories',
  );
  while (listing.url !== undefined) {
    const response = await http.request('registry:catalog:*', 'GET', listing.url);
    if (!response.ok) throw await http.failure('listing its repositories (/v2/_catalog)', response);
    const page = (await listing.page(response)) as { repositories?: unknown };
    if (!Array.isArray(page.repositories) || !page.repositories.every((entry) => typeof entry === 'string'))
      throw new RegistryError(`${http.registry} answered /v2/_catalog with something that is not a list of repositories`);
    for (const name of page.repositories as string[]) names.push(name);
  }
  return names;
}
