/** The version and license of package.json: what `facetform --version` prints and the OpenAPI document's info. */
import { createRequire } from 'node:module';

// Two folders up from both src/util and the compiled lib/util.
const PACKAGE = createRequire(import.meta.url)('../../package.json') as { version: string; license: string };

export const PACKAGE_VERSION = PACKAGE.version;
export const PACKAGE_LICENSE = PACKAGE.license;
