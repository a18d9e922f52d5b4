/** What `push` and `pull` share: the release they name, the registry client their options make, and their errors in words. */
import { isRelease } from '../release/release.js';
import { CredentialsError, credentialsFor } from '../oci/credentials.js';
import { RegistryClient, RegistryError } from '../oci/distribution.js';
import { parsePlace, ReferenceError, type RegistryPlace } from '../oci/reference.js';
import { RefusedReleaseError } from '../oci/release-pull.js';
import { KeyError } from '../oci/signature.js';
import { BundleLoadError } from '../bundle/bundle-file.js';
import { CliError, type Io } from './io.js';

export const REGISTRY_OPTIONS = {
  insecure: { type: 'boolean', default: false },
  username: { type: 'string' },
  'password-stdin': { type: 'boolean', default: false },
  bundles: { type: 'string', default: process.env.BUNDLES_DIR ?? 'dist' },
} as const;

/** `<repository>[/<apiVersion>][@<release>]`. */
export interface ReleaseSpec {
  repository: string;
  apiVersion?: string;
  release?: string;
}

export function parseReleaseSpec(text: string | undefined, command: string): ReleaseSpec {
  const match = /^([a-z0-9][a-z0-9._-]*)(?:\/(v\d+[a-z0-9]*))?(?:@(.+))?$/.exec(text ?? '');
  if (match === null)
    throw new CliError(
      `${JSON.stringify(text ?? '')} is not a release: write <repository>[/<apiVersion>][@<release>], e.g. facetform ${command} service-resources@1.1.0 oci://HOST/PATH`,
    );
  const [, repository, apiVersion, release] = match;
  if (release !== undefined && !isRelease(release)) throw new CliError(`"${release}" is not a release (semver, e.g. 1.1.0)`);
  return { repository: repository!, ...(apiVersion === undefined ? {} : { apiVersion }), ...(release === undefined ? {} : { release }) };
}

export async function registryClient(
  placeText: string | undefined,
  values: { insecure?: boolean; username?: string; 'password-stdin'?: boolean },
  io: Io,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ place: RegistryPlace; client: RegistryClient }> {
  if (placeText === undefined) throw new CliError('name the registry: oci://HOST[:PORT]/PATH');
  const place = parsePlace(placeText);
  const password = values['password-stdin'] ? (await io.readStdin()).replace(/\r?\n$/, '') : undefined;
  const credentials = credentialsFor(place.registry, env, {
    ...(values.username === undefined ? {} : { username: values.username }),
    ...(password === undefined ? {} : { password }),
  });
  return { place, client: new RegistryClient(place.registry, { insecure: values.insecure ?? false, credentials }) };
}

/**
 * What push and pull say of a release, in the same words: the digest of its OCI manifest (what the
 * registry, crane and oras name it by, and what a signature signs) and of its bundle (dist/index.json's).
 */
export function releaseDigests(manifestDigest: string, bundleDigest: string): string {
  return `manifest ${manifestDigest}, bundle ${bundleDigest}`;
}

/** Runs a registry command, turning what a user can mend into a CliError (exit 1) that says it. */
export async function explainRegistryErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ReferenceError || error instanceof CredentialsError || error instanceof KeyError)
      throw new CliError(error.message);
    if (error instanceof RegistryError || error instanceof RefusedReleaseError || error instanceof BundleLoadError)
      throw new CliError(error.message, 1);
    throw error;
  }
}
