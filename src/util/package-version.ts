/** The version of package.json: what `facetform --version` prints and the OpenAPI document's info.version. */
import { createRequire } from 'node:module';

// Two folders up from both src/util and the compiled lib/util.
export const PACKAGE_VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
