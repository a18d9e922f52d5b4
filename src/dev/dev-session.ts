/**
 * One run of `facetform dev`, from the first compile to SIGTERM or SIGINT: the working tree of
 * repos/ watched (watch.ts), rebuilt in memory on every save (rebuild-loop.ts, preview-builder.ts)
 * and served as an unreleased preview (preview-server.ts), each rebuild told on standard error
 * (rebuild-report.ts) and to the consoles (publish-status.ts). Nothing is written.
 */
import { performance } from 'node:perf_hooks';
import type { ApiKeys } from '../server/api-keys.js';
import type { ServerConfig } from '../server/config.js';
import { headerText, Preview } from '../server/preview.js';
import { counted } from '../util/text.js';
import { PreviewBuilder, type RebuildResult } from './preview-builder.js';
import { type PreviewServer, startPreviewServer } from './preview-server.js';
import { publishStatus } from './publish-status.js';
import { RebuildLoop } from './rebuild-loop.js';
import { type DevOutput, reportRebuild } from './rebuild-report.js';
import { watchRepositories } from './watch.js';

/** A session that cannot start: the first compile failed, or the server cannot listen. */
export class DevStartError extends Error {}

export interface DevSession {
  reposDir: string;
  /** The repositories folder as the author knows it, for messages. */
  shown: string;
  config: ServerConfig;
  env: NodeJS.ProcessEnv;
  /** Every route answers without X-APIKEY. */
  keyless: boolean;
  /** The API keys the configuration names: read at start, and again on SIGHUP when they come from a file. */
  readKeys: () => ApiKeys;
  output: DevOutput;
}

/** Resolves with the exit code once a signal stopped the session and the server has closed. */
export async function runDevSession({ reposDir, shown, config, env, keyless, readKeys, output }: DevSession): Promise<number> {
  const { say } = output;
  const keys = readKeys();
  const builder = new PreviewBuilder(reposDir);
  const preview = new Preview(headerText(`unreleased working tree of ${shown}`), keyless);
  let generation = 0;
  let server: PreviewServer | undefined;
  const loop = new RebuildLoop(
    builder,
    (result, { compileMs, savedAt }) => {
      if (result.changed && server !== undefined) {
        generation++;
        server.running.state.registry = builder.registry();
      }
      reportRebuild(result, builder, output, shown, { servedMs: performance.now() - savedAt, compileMs });
      if (result.compiled.length > 0 || result.removed.length > 0) publishStatus(preview, builder, generation);
    },
    (error) => say(`the rebuild failed (${error.message}); the last good preview keeps serving`),
  );
  // Watching starts before the first compile: a save during it is compiled right after.
  const watcher = watchRepositories(reposDir, (changes) => loop.changed(changes), {
    onError: (error) => say(`watching ${shown} failed (${error.message}); restart dev to watch again`),
  });

  say(`compiling ${shown}; the first compile generates the Kubernetes types and takes some seconds, the ones after a save do not`);
  const started = performance.now();
  let first: RebuildResult;
  try {
    first = await builder.rebuild();
  } catch (error) {
    watcher.close();
    throw new DevStartError(`cannot compile ${shown}: ${(error as Error).message}`);
  }
  reportRebuild(first, builder, output, shown, { servedMs: undefined, compileMs: performance.now() - started });
  say(`compiled in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  try {
    server = await startPreviewServer(builder.registry(), keys, preview, config, env);
  } catch (error) {
    watcher.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new DevStartError(`cannot listen on ${config.host}:${config.port} (${code}); choose another with --port N (or HOST)`);
    }
    throw error;
  }
  const { running } = server;
  generation = 1;
  publishStatus(preview, builder, generation);

  process.on('SIGHUP', () => {
    if (config.apiKeysFile === undefined) return;
    try {
      running.state.keys.replace(readKeys());
      say('SIGHUP: API keys read again');
    } catch (error) {
      say(`SIGHUP: ${(error as Error).message}; the previous keys stay valid`);
    }
  });
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  const served = [...builder.state.values()].filter((repository) => repository.served !== undefined);
  const collections = served.reduce((count, repository) => count + repository.served!.collections.size, 0);
  say(
    `previewing ${counted(served.length, 'repository', 'repositories')} (${counted(collections, 'collection')}) of ${shown} on ${running.url} ` +
      `as unreleased (X-Facetform-Preview, release +dev); saves are rebuilt and served at once, nothing is written: \`facetform build\` makes releases`,
  );
  say(
    keyless ? `no API key needed on ${config.host}; the console is at ${running.url}/` : `send X-APIKEY; the console is at ${running.url}/`,
  );
  loop.start();

  await stopped;
  watcher.close();
  preview.close();
  await server.stop();
  return 0;
}
