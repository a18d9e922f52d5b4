/**
 * Where a release lives in a registry: `oci://HOST[:PORT]/PATH` names a place, and each release of
 * one repository's API version is the tag `<release>` of the OCI repository `PATH/<repository>/<apiVersion>`
 * (as Helm appends the chart's name to its `oci://` address). A release (semver without build
 * metadata, release/release.ts) is always a valid tag.
 */
export interface RegistryPlace {
  /** HOST or HOST:PORT. */
  registry: string;
  /** Repository path under the registry, without leading or trailing "/"; may be empty. */
  path: string;
}

export class ReferenceError extends Error {}

/** One path component as the distribution spec allows it: lowercase letters and digits, joined by ".", "_", "__" or dashes. */
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const REGISTRY =
  /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\[[0-9a-fA-F:.]+\])(?::[0-9]{1,5})?$/;

/** `oci://HOST[:PORT]/PATH`, checked; a ReferenceError says what is wrong and what is meant. */
export function parsePlace(text: string): RegistryPlace {
  const example = 'e.g. oci://registry.example.com/platform/facetform';
  if (!text.startsWith('oci://')) throw new ReferenceError(`"${text}" is not a registry address: write oci://HOST[:PORT]/PATH, ${example}`);
  const [registry = '', ...components] = text.slice('oci://'.length).replace(/\/+$/, '').split('/');
  if (!REGISTRY.test(registry))
    throw new ReferenceError(`"${registry}" in "${text}" is not a registry host (HOST or HOST:PORT), ${example}`);
  const bad = components.find((component) => !PATH_COMPONENT.test(component));
  if (bad !== undefined) {
    throw new ReferenceError(
      `"${bad}" in "${text}" is not a repository path component: lowercase letters and digits, joined by ".", "_" or "-"`,
    );
  }
  return { registry, path: components.join('/') };
}

/** The OCI repository that holds one repository's API version under `place`. */
export function ociRepository(place: RegistryPlace, repository: string, apiVersion: string): string {
  return [place.path, repository, apiVersion].filter((part) => part !== '').join('/');
}

/** The repository and API version an OCI repository under `place` holds, or undefined when it is not one of ours. */
export function repositoryOf(place: RegistryPlace, name: string): { repository: string; apiVersion: string } | undefined {
  const prefix = place.path === '' ? '' : `${place.path}/`;
  if (!name.startsWith(prefix)) return undefined;
  const parts = name.slice(prefix.length).split('/');
  if (parts.length !== 2) return undefined;
  const [repository, apiVersion] = parts as [string, string];
  return /^v\d+/.test(apiVersion) ? { repository, apiVersion } : undefined;
}

export const placeText = (place: RegistryPlace): string => `oci://${place.registry}${place.path === '' ? '' : `/${place.path}`}`;
