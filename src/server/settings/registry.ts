/** The settings of following a registry's releases (setting.ts says what a declaration is). */
import { parsePlace, type RegistryPlace } from '../../oci/reference.js';
import { readTrustedKeys } from '../../oci/signature.js';
import { entries, nonEmpty, rethrown, type Setting, SettingValueError, wholeNumber } from './setting.js';

export const REGISTRY_SETTINGS = {
  BUNDLES_FROM: {
    name: 'BUNDLES_FROM',
    values: '`oci://HOST[:PORT]/PATH`',
    description:
      'a registry whose releases the server follows (docs/releases.md, "Releases through a registry"). Pulled releases are written into `BUNDLES_DIR`, which may then be empty',
    parse: (text): RegistryPlace | undefined => {
      const place = nonEmpty(text);
      return place === undefined ? undefined : rethrown(() => parsePlace(place));
    },
  },
  BUNDLES_POLL_SECONDS: {
    name: 'BUNDLES_POLL_SECONDS',
    default: '60',
    description: 'how often the registry is polled; SIGHUP polls at once',
    ...wholeNumber(1, 86_400),
  },
  BUNDLES_FROM_INSECURE: {
    name: 'BUNDLES_FROM_INSECURE',
    default: 'false',
    values: '`true` or `false`',
    description: '`true`: the registry is spoken to over plain HTTP',
    parse: (text = '') => {
      if (text !== 'true' && text !== 'false') throw new SettingValueError(`"${text}" is not true or false`);
      return text === 'true';
    },
  },
  BUNDLES_FROM_REPOSITORIES: {
    name: 'BUNDLES_FROM_REPOSITORIES',
    shownDefault: "the catalog's",
    values: '`<repository>/<apiVersion>`, comma-separated',
    description: 'the repositories to follow, for a registry that does not list its repositories',
    parse: (text) => {
      const repositories = text === undefined ? undefined : entries(text);
      const bad = repositories?.find((entry) => !/^[a-z0-9][a-z0-9._-]*\/v\d+[a-z0-9]*$/.test(entry));
      if (bad !== undefined) throw new SettingValueError(`"${bad}" is not <repository>/<apiVersion>, e.g. service-resources/v1`);
      return repositories;
    },
  },
  TRUST_KEY_FILE: {
    name: 'TRUST_KEY_FILE',
    values: 'a file of PEM public keys (ECDSA P-256 or Ed25519)',
    description:
      'only releases signed by one of them are pulled; a regular file of at most 1 MiB (a larger one, a FIFO or a device is refused unread). Unset: releases are pulled unsigned (a warning at start)',
    parse: (file) => {
      // Set but empty (a template left unfilled) must not turn signature checks off.
      if (file === '') throw new SettingValueError('is empty: name the PEM file of the public keys that sign releases, or unset it');
      if (file !== undefined) rethrown(() => readTrustedKeys(file));
      return file;
    },
  },
  // Read by oci/credentials.ts when the follower starts, not by the reader: declared for help, docs and misspellings.
  REGISTRY_USERNAME: {
    name: 'REGISTRY_USERNAME',
    values: 'a user name',
    description: "the registry's login, with `REGISTRY_PASSWORD`; unset, the Docker config file's entry for the host",
    parse: (text) => text,
  },
  REGISTRY_PASSWORD: {
    name: 'REGISTRY_PASSWORD',
    values: 'a password',
    description: "the registry's login, with `REGISTRY_USERNAME`",
    parse: (text) => text,
  },
} satisfies Record<string, Setting<unknown>>;
