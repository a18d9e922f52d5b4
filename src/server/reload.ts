/**
 * Reload without restart (SIGHUP): API_KEYS_FILE and the bundles are read again. Whatever fails to
 * load is logged and the server goes on with what it had; requests in flight finish on the bundles
 * they started with.
 */
import { BundleLoadError } from '../bundle/bundle-file.js';
import { ApiKeys, KeyFileError } from './api-keys.js';
import { loadRegistry } from './bundles.js';
import type { ServerState } from './state.js';

export interface ReloadSources {
  distDir: string;
  apiKeysFile?: string | undefined;
  /** A server following a registry may have an empty folder (bundles.ts loadRegistry). */
  emptyAllowed?: boolean;
  /** Keys from API_KEYS, which a reload keeps. */
  plainKeys?: string[] | undefined;
}

export interface ReloadOutcome {
  keys: 'reloaded' | 'kept' | 'unchanged';
  bundles: 'reloaded' | 'kept';
}

/** Reads the keys and bundles again; the key file is read without holding the event loop (a FIFO or huge file is refused unread). */
export async function reload(state: ServerState, sources: ReloadSources): Promise<ReloadOutcome> {
  const outcome: ReloadOutcome = { keys: 'unchanged', bundles: 'kept' };
  if (sources.apiKeysFile !== undefined) {
    try {
      let keys = await ApiKeys.readFile(sources.apiKeysFile);
      if (sources.plainKeys !== undefined) keys = keys.add(ApiKeys.fromPlainKeys(sources.plainKeys));
      state.keys.replace(keys);
      outcome.keys = 'reloaded';
      state.logger.info({ keys: state.keys.size }, 'reload: API keys read again');
    } catch (error) {
      outcome.keys = 'kept';
      state.logger.error(
        { err: error instanceof KeyFileError ? { message: error.message } : error },
        'reload: API_KEYS_FILE could not be read; the previous keys stay valid',
      );
    }
  }
  outcome.bundles = reloadBundles(state, sources.distDir, sources.emptyAllowed);
  return outcome;
}

/** Reads the bundles folder again and serves it; what fails to load is logged and the previous bundles keep serving. */
export function reloadBundles(state: ServerState, distDir: string, emptyAllowed = false): ReloadOutcome['bundles'] {
  try {
    const registry = loadRegistry(distDir, emptyAllowed);
    state.registry = registry;
    state.logger.info(
      {
        bundles: registry.bundles.map(
          (loaded) => `${loaded.bundle.repository.name}/${loaded.bundle.repository.apiVersion}/${loaded.bundle.repository.release}`,
        ),
      },
      'reload: bundles loaded',
    );
    return 'reloaded';
  } catch (error) {
    // Whatever went wrong, a reload must never take down a server that is serving.
    if (error instanceof BundleLoadError)
      state.logger.error({ file: error.file, reason: error.message }, 'reload: a bundle failed to load; the previous bundles keep serving');
    else state.logger.error({ err: error }, 'reload: failed; the previous bundles keep serving');
    return 'kept';
  }
}
