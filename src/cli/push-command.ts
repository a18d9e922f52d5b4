/**
 * `facetform push <repository>[/<apiVersion>][@<release>] oci://HOST/PATH`: built releases from the
 * bundles folder to a registry, each as the tag `<release>` of `PATH/<repository>/<apiVersion>`,
 * signed with --sign. Without @release, every release of the repository the folder holds: those the
 * registry has already are left as they are, so CI can run it after every build.
 */
import path from 'node:path';
import { readBundleFile } from '../bundle/bundle-file.js';
import { bundleFileOf, readIndexFile } from '../bundle/dist-layout.js';
import { ociRepository } from '../oci/reference.js';
import { releaseFiles } from '../oci/release-artifact.js';
import { pushRelease } from '../oci/release-push.js';
import { readSigningKey } from '../oci/signature.js';
import { CliError, type Io, parseCommandArgs } from './io.js';
import { explainRegistryErrors, parseReleaseSpec, REGISTRY_OPTIONS, registryClient, releaseDigests } from './registry-options.js';

export async function runPush(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { ...REGISTRY_OPTIONS, sign: { type: 'string' } }, true);
  if (positionals.length !== 2)
    throw new CliError('usage: facetform push <repository>[/<apiVersion>][@<release>] oci://HOST/PATH [--sign KEY]');
  const spec = parseReleaseSpec(positionals[0], 'push');
  return explainRegistryErrors(async () => {
    const index = readIndexFile(values.bundles);
    const entries = index.bundles.filter(
      (entry) =>
        entry.repository === spec.repository &&
        (spec.apiVersion === undefined || entry.apiVersion === spec.apiVersion) &&
        (spec.release === undefined || entry.release === spec.release),
    );
    if (entries.length === 0) {
      const known = [
        ...new Set(
          index.bundles.filter((entry) => entry.repository === spec.repository).map((entry) => `${entry.apiVersion}@${entry.release}`),
        ),
      ];
      throw new CliError(
        `${values.bundles} holds no release ${positionals[0]}; ${known.length === 0 ? `its repositories: ${[...new Set(index.bundles.map((entry) => entry.repository))].join(', ')}` : `it holds ${spec.repository} ${known.join(', ')}`}`,
        1,
      );
    }
    if (spec.release !== undefined && new Set(entries.map((entry) => entry.apiVersion)).size > 1)
      throw new CliError(
        `${spec.repository}@${spec.release} is a release of more than one API version; name one: ${spec.repository}/${entries[0]!.apiVersion}@${spec.release}`,
      );
    const signingKey = values.sign === undefined ? undefined : readSigningKey(values.sign);
    const { place, client } = await registryClient(positionals[1], values, io);
    for (const entry of entries) {
      const file = bundleFileOf(values.bundles, entry.repository, entry.apiVersion, entry.release);
      const bundle = readBundleFile(file);
      const name = ociRepository(place, entry.repository, entry.apiVersion);
      const started = performance.now();
      const pushed = await pushRelease(client, name, bundle, releaseFiles(path.dirname(file)), entry.date, signingKey);
      const took = `${Math.round(performance.now() - started)} ms`;
      const what = pushed.outcome === 'pushed' ? 'pushed' : 'already there';
      const signed = pushed.signedBy === undefined ? '' : `, signed by key ${pushed.signedBy}`;
      io.out(`${place.registry}/${name}:${entry.release} ${what} (${releaseDigests(pushed.digest, bundle.digest)}${signed}, ${took})\n`);
    }
    return 0;
  });
}
