/**
 * `facetform pull <repository>[/<apiVersion>][@<release>] oci://HOST/PATH`: a release from a registry
 * into the bundles folder, its digests checked, and its signature with --trust-key (or
 * TRUST_KEY_FILE). Without @release, the latest release; without /<apiVersion>, the one API version
 * the registry's catalog lists for the repository.
 */
import { addRelease } from '../bundle/add-release.js';
import { latestRelease, isRelease } from '../release/release.js';
import { isOutage } from '../oci/distribution.js';
import { ociRepository, repositoryOf } from '../oci/reference.js';
import { pullRelease } from '../oci/release-pull.js';
import { readTrustedKeys } from '../oci/signature.js';
import { CliError, type Io, parseCommandArgs } from './io.js';
import { explainRegistryErrors, parseReleaseSpec, REGISTRY_OPTIONS, registryClient, releaseDigests } from './registry-options.js';

export async function runPull(args: string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { ...REGISTRY_OPTIONS, 'trust-key': { type: 'string' } }, true);
  if (positionals.length !== 2)
    throw new CliError('usage: facetform pull <repository>[/<apiVersion>][@<release>] oci://HOST/PATH [--trust-key FILE]');
  const spec = parseReleaseSpec(positionals[0], 'pull');
  return explainRegistryErrors(async () => {
    const trustKeyFile = values['trust-key'] ?? env.TRUST_KEY_FILE;
    const trusted = trustKeyFile === undefined ? undefined : readTrustedKeys(trustKeyFile);
    const { place, client } = await registryClient(positionals[1], values, io, env);
    let apiVersion = spec.apiVersion;
    if (apiVersion === undefined) {
      // Without a catalog the caller names the version; a registry that cannot be reached says so instead.
      const versions = (
        await client.catalog().catch((error: unknown) => {
          if (isOutage(error)) throw error;
          return undefined;
        })
      )
        ?.map((name) => repositoryOf(place, name))
        .filter((found) => found?.repository === spec.repository)
        .map((found) => found!.apiVersion);
      if (versions?.length !== 1)
        throw new CliError(
          `name the API version, e.g. ${spec.repository}/v1${spec.release === undefined ? '' : `@${spec.release}`}: ` +
            (versions === undefined
              ? `${place.registry} does not list its repositories`
              : `the registry lists ${versions.length === 0 ? 'none' : versions.join(', ')} for ${spec.repository}`),
          1,
        );
      apiVersion = versions[0]!;
    }
    const name = ociRepository(place, spec.repository, apiVersion);
    const release = spec.release ?? latestRelease((await client.tags(name)).filter(isRelease), (tag) => tag);
    if (release === undefined) throw new CliError(`${place.registry}/${name} holds no release`, 1);
    const started = performance.now();
    const pulled = await pullRelease(client, name, release, trusted);
    if (pulled === undefined) throw new CliError(`${place.registry}/${name} has no release ${release}`, 1);
    const outcome = addRelease(values.bundles, pulled.bundle, pulled.files, pulled.date);
    const took = `${Math.round(performance.now() - started)} ms`;
    const signed =
      pulled.signedBy === undefined
        ? trusted === undefined
          ? ', signature not checked (no trust key)'
          : ''
        : `, signed by key ${pulled.signedBy}`;
    io.out(
      `${place.registry}/${name}:${release} ${outcome === 'added' ? 'pulled into' : 'already in'} ${values.bundles} (${releaseDigests(pulled.digest, pulled.bundle.digest)}${signed}, ${took})\n`,
    );
    return 0;
  });
}
