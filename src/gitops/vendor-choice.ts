/**
 * The vendor a request file renders with when its spec names none: a Request, the one vendor that
 * has its repository; a BatchRequest, the one vendor served. The same rule offline and against a
 * server, so a file renders alike with both.
 */
import type { Problem } from '../request/problems.js';
import { REQUEST_KIND, type RequestFile } from '../request-file/request-file.js';

export interface VendorCatalog {
  vendors(): Promise<string[]>;
  vendorsOf(repository: string): Promise<string[]>;
  /** Every repository name served, sorted. */
  repositories(): Promise<string[]>;
}

export async function chooseVendor(request: RequestFile, catalog: VendorCatalog): Promise<string | Problem> {
  if (request.spec.vendor !== undefined) return request.spec.vendor;
  if (request.kind === REQUEST_KIND) {
    const repository = request.spec.repository;
    const vendors = await catalog.vendorsOf(repository);
    if (vendors.length === 1) return vendors[0]!;
    if (vendors.length > 1) return { pointer: '/spec/vendor', detail: `is required: vendors ${vendors.join(', ')} each have a repository "${repository}"; name one` };
    return { pointer: '/spec/repository', detail: `no repository "${repository}"; known: ${(await catalog.repositories()).join(', ') || 'none'}` };
  }
  const vendors = await catalog.vendors();
  if (vendors.length === 1) return vendors[0]!;
  return { pointer: '/spec/vendor', detail: vendors.length === 0 ? 'no vendor is served' : `is required: vendors ${vendors.join(', ')} are served; name one` };
}
