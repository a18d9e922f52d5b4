/**
 * `facetform dev [--repos DIR] [--port N]`: serves the working tree of repos/ as an unreleased
 * preview, through the same server as `serve`, and rebuilds it in memory on every save. Lint
 * messages are printed as they appear; a repository with lint errors keeps its last good preview
 * serving. Every answer says it is a preview. Nothing is written: `facetform build` makes releases.
 *
 * Settings come from the environment as for `serve`, but HOST defaults to 127.0.0.1; there, with no
 * key configured, no key is asked for (only this machine can connect, and what it serves is the
 * caller's own working tree). BUNDLES_DIR and WORKERS do not apply.
 */
import path from 'node:path';
import { DevStartError, runDevSession } from '../dev/dev-session.js';
import { newKey } from '../server/api-keys.js';
import { ConfigError, readConfig, type ServerConfig } from '../server/config.js';
import { CliError, type Io, parseCommandArgs } from './io.js';
import { reposFolder } from './repos-folder.js';
import { loadKeys } from './serve-command.js';

const DEV_HOST = '127.0.0.1';

export function isLoopback(host: string): boolean {
  return host === 'localhost' || /^127(\.\d{1,3}){3}$/.test(host) || host === '::1' || host === '[::1]';
}

/** The folder as the author knows it: relative to here when inside it, with a final slash. */
function shownFolder(dir: string): string {
  const relative = path.relative(process.cwd(), path.resolve(dir));
  const shown = relative === '' ? '.' : relative.startsWith('..') || path.isAbsolute(relative) ? path.resolve(dir) : relative;
  return shown.endsWith('/') ? shown : `${shown}/`;
}

function readDevConfig(env: NodeJS.ProcessEnv, port: string | undefined): ServerConfig {
  const devEnv: NodeJS.ProcessEnv = { ...env, HOST: env.HOST ?? DEV_HOST };
  if (port !== undefined) devEnv.PORT = port;
  delete devEnv.BUNDLES_DIR;
  delete devEnv.WORKERS;
  try {
    return readConfig(devEnv);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(`configuration error: ${error.message}`);
    throw error;
  }
}

export async function runDev(args: string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values } = parseCommandArgs(args, { repos: { type: 'string', default: 'repos' }, port: { type: 'string' } });
  const reposDir = values.repos!;
  reposFolder(reposDir, 'name it with --repos DIR');
  if (values.port !== undefined && !/^\d{1,5}$/.test(values.port))
    throw new CliError(`--port "${values.port}" is not a port number (0 picks a free one)`);
  const config = readDevConfig(env, values.port);
  const shown = shownFolder(reposDir);
  const say = (text: string) => io.err(`facetform dev: ${text}\n`);
  for (const warning of config.warnings) say(`warning: ${warning}`);
  if (env.BUNDLES_DIR) say(`BUNDLES_DIR is not used: dev serves ${shown} as it is now`);
  if (env.WORKERS !== undefined && env.WORKERS !== '1') say('WORKERS is not used: dev serves in one process');

  const configured = config.apiKeys !== undefined || config.apiKeysFile !== undefined;
  const keyless = !configured && isLoopback(config.host);
  let generated: string | undefined;
  if (!configured && !keyless) {
    generated = newKey();
    io.err(
      `No API key is configured and HOST ${config.host} is reachable from other machines, so this run made one. Send it as X-APIKEY:\n\n    ${generated}\n\n` +
        'It is printed only now and lasts until dev stops. To choose keys, set API_KEYS or API_KEYS_FILE, as for serve.\n',
    );
  }
  const output = { say, err: (text: string) => io.err(text) };
  try {
    return await runDevSession({ reposDir, shown, config, env, keyless, readKeys: () => loadKeys(config, generated), output });
  } catch (error) {
    if (error instanceof DevStartError) throw new CliError(error.message, 1);
    throw error;
  }
}
