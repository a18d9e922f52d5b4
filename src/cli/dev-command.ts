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
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { type Changes, mergeChanges, watchRepositories } from '../dev/watch.js';
import { PreviewBuilder, type RebuildResult } from '../dev/preview-builder.js';
import type { LintMessage } from '../lint/report.js';
import { newKey } from '../server/api-keys.js';
import { ConfigError, readConfig, type ServerConfig } from '../server/config.js';
import { createLogSink } from '../server/log-sink.js';
import { EVENTS_PATH, headerText, Preview, PREVIEW_RELEASE_SUFFIX, type PreviewStatus } from '../server/preview.js';
import { createState, startServer, type RunningServer } from '../server/server.js';
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

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const lintLines = (messages: LintMessage[]) =>
  messages.flatMap((m) => [`${m.file}:${m.line}:${m.column} ${m.severity} ${m.message}`, ...(m.hint ? [`    hint: ${m.hint}`] : [])]);
const clock = (date: Date | undefined) => (date === undefined ? '' : date.toTimeString().slice(0, 8));

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
  const keys = loadKeys(config, generated);

  const builder = new PreviewBuilder(reposDir);
  const preview = new Preview(headerText(`unreleased working tree of ${shown}`), keyless);
  let generation = 0;
  const publish = () => {
    const repositories: PreviewStatus['repositories'] = [...builder.state.values()].map((repository) => ({
      name: repository.name,
      ...(repository.served === undefined ? {} : { release: repository.served.bundle.repository.release + PREVIEW_RELEASE_SUFFIX }),
      errors: repository.errors,
      warnings: repository.warnings,
      stale: repository.errors > 0,
      collections: repository.shapes,
    }));
    const digests = new Set(
      [...builder.state.values()].flatMap((repository) => (repository.served === undefined ? [] : [repository.served.bundle.digest])),
    );
    preview.publish({ generation, repositories }, digests);
  };

  // Watching starts before the first compile: a save during it is compiled right after.
  let pending: Changes | undefined;
  let busy = true;
  let running: RunningServer | undefined;
  const watcher = watchRepositories(
    reposDir,
    (changes) => {
      pending = mergeChanges(pending, changes);
      if (!busy) void drain();
    },
    { onError: (error) => say(`watching ${shown} failed (${error.message}); restart dev to watch again`) },
  );

  /** What a rebuild says: errors in full, warnings as they appear, and one line per repository. */
  const report = (result: RebuildResult, servedMs: number | undefined, compileMs: number) => {
    for (const compiled of result.compiled) {
      const repository = builder.state.get(compiled.name)!;
      const shownMessages = compiled.messages.filter((message) => message.severity === 'error' || compiled.newMessages.includes(message));
      if (shownMessages.length > 0) io.err(lintLines(shownMessages).join('\n') + '\n');
      const counts = `${plural(compiled.errors, 'error')}, ${plural(compiled.warnings, 'warning')}`;
      if (compiled.served) {
        const release = repository.served!.bundle.repository.release + PREVIEW_RELEASE_SUFFIX;
        say(
          servedMs === undefined
            ? `${compiled.name} ${release}: ${plural(repository.served!.collections.size, 'collection')} (${counts})`
            : `rebuilt ${compiled.name} ${release} in ${Math.round(servedMs)} ms from the save to serving it (compile ${Math.round(compileMs)} ms; ${counts})`,
        );
      } else if (compiled.errors > 0 && repository.served !== undefined) {
        say(
          `${compiled.name}: ${counts}; its last good preview (compiled at ${clock(repository.servedAt)}) keeps serving until they are fixed`,
        );
      } else {
        say(`${compiled.name}: ${counts}; nothing of it is served until they are fixed`);
      }
    }
    for (const name of result.removed) say(`${name} is no longer in ${shown}; it is not served any more`);
  };

  const drain = async () => {
    busy = true;
    try {
      while (pending !== undefined) {
        const changes = pending;
        pending = undefined;
        const started = performance.now();
        let result: RebuildResult;
        try {
          result = await builder.rebuild(changes.all ? undefined : changes.names);
        } catch (error) {
          say(`the rebuild failed (${(error as Error).message}); the last good preview keeps serving`);
          continue;
        }
        const compileMs = performance.now() - started;
        if (result.changed && running !== undefined) {
          generation++;
          running.state.registry = builder.registry();
        }
        const servedMs = performance.now() - changes.firstAt;
        report(result, servedMs, compileMs);
        if (result.compiled.length > 0 || result.removed.length > 0) publish();
      }
    } finally {
      busy = false;
    }
  };

  say(`compiling ${shown}; the first compile generates the Kubernetes types and takes some seconds, the ones after a save do not`);
  const started = performance.now();
  let first: RebuildResult;
  try {
    first = await builder.rebuild();
  } catch (error) {
    watcher.close();
    throw new CliError(`cannot compile ${shown}: ${(error as Error).message}`, 1);
  }
  report(first, undefined, performance.now() - started);
  say(`compiled in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const logSink = createLogSink();
  // Request lines would drown the lint messages: LOG_LEVEL=info shows them (JSON on stdout, as serve).
  const logger = pino(
    { level: env.LOG_LEVEL === undefined ? 'warn' : config.logLevel, base: { service: 'facetform', mode: 'dev', pid: process.pid } },
    logSink,
  );
  const state = createState(builder.registry(), keys, logger, {
    rateLimit: config.rateLimit,
    redisUrl: config.redisUrl,
    redisTimeoutMs: config.redisTimeoutMs,
    limits: config.limits,
    openRoutes: config.openRoutes,
  });
  state.preview = preview;
  // The console's EventSource cannot send X-APIKEY; the events say names and counts, nothing else.
  state.openPaths = new Set([...state.openPaths, EVENTS_PATH]);
  try {
    running = await startServer(state, config.port, config.host, config.timeouts);
  } catch (error) {
    watcher.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new CliError(`cannot listen on ${config.host}:${config.port} (${code}); choose another with --port N (or HOST)`, 1);
    }
    throw error;
  }
  generation = 1;
  publish();

  process.on('SIGHUP', () => {
    if (config.apiKeysFile === undefined) return;
    try {
      state.keys.replace(loadKeys(config, generated));
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
    `previewing ${served.length} ${served.length === 1 ? 'repository' : 'repositories'} (${plural(collections, 'collection')}) of ${shown} on ${running.url} ` +
      `as unreleased (X-Facetform-Preview, release +dev); saves are rebuilt and served at once, nothing is written: \`facetform build\` makes releases`,
  );
  say(
    keyless ? `no API key needed on ${config.host}; the console is at ${running.url}/` : `send X-APIKEY; the console is at ${running.url}/`,
  );
  busy = false;
  if (pending !== undefined) void drain();

  await stopped;
  watcher.close();
  preview.close();
  await running.close(config.shutdownTimeoutMs);
  await logSink.close(1000);
  return 0;
}
