/**
 * Reading a bundle.json: the one reader, for the server, the build and `facetform diff`. A bundle is
 * trusted only when its content matches its digest (CONTRACT §9): a changed byte is always noticed.
 */
import { isRelease } from '../release/release.js';
import { FileReadError, readRegularFileSync } from '../util/regular-file.js';
import { BUNDLE_FORMAT, type Bundle, digestOf } from './bundle.js';

/**
 * The most bytes a file of dist/ the server reads (bundle.json, index.json) may have: what a whole
 * release pulled from a registry may have (src/oci/release-pull.ts), far more than any of ours (a few
 * hundred KiB). A FIFO or device in its place is refused too, rather than stopping the server.
 */
export const MAX_DIST_FILE_BYTES = 64 * 1024 * 1024;

export class BundleLoadError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'BundleLoadError';
  }
}

/** The bundle in `file`, its format, release and digest checked; a BundleLoadError names what is wrong. */
export function readBundleFile(file: string): Bundle {
  let text: string;
  try {
    text = readRegularFileSync(file, MAX_DIST_FILE_BYTES).toString('utf8');
  } catch (error) {
    throw new BundleLoadError(
      file,
      `${error instanceof FileReadError ? error.reason : (error as Error).message}; rebuild it with \`npm run build\``,
    );
  }
  return parseBundle(text, file);
}

/** A bundle's text as read from `where` (a file, or a registry's artifact), checked as readBundleFile does. */
export function parseBundle(text: string, where: string): Bundle {
  let bundle: Bundle;
  try {
    bundle = JSON.parse(text) as Bundle;
  } catch (error) {
    throw new BundleLoadError(where, `cannot be read as JSON (${(error as Error).message}); rebuild it with \`npm run build\``);
  }
  const { repository } = bundle ?? {};
  if (bundle?.format !== BUNDLE_FORMAT || !Array.isArray(bundle.collections) || typeof repository !== 'object' || repository === null) {
    throw new BundleLoadError(where, `is not a ${BUNDLE_FORMAT} bundle`);
  }
  const digest = digestOf(bundle);
  if (digest !== bundle.digest) {
    const recorded = `recorded ${bundle.digest}, computed ${digest}`;
    throw new BundleLoadError(where, `content does not match its digest (${recorded}); the file was changed after the build`);
  }
  // Releases are ordered by semver, which knows no other version; a build writes only releases.
  const { release } = repository;
  if (typeof release !== 'string' || !isRelease(release)) {
    const rebuild = 'rebuild it with `npm run build`';
    throw new BundleLoadError(where, `repository.release ${JSON.stringify(release)} is not a release (semver, e.g. "1.0.0"); ${rebuild}`);
  }
  return bundle;
}
