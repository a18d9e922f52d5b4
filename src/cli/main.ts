/** `facetform`: lint, build and render offline. Each command lives in its own module. */
import { runBuild } from './build-command.js';
import { runLint } from './lint-command.js';
import { runKeys } from './keys-command.js';
import { runRender } from './render-command.js';
import { runServe } from './serve-command.js';
import { CliError, type Io, processIo } from './io.js';

export const USAGE = `Usage:
  facetform lint   [--repos DIR]                 check every repository (default repos/)
  facetform build  [--repos DIR] [--out DIR]     lint, then write bundles (default dist/)
  facetform render <repository>/<collection> [--facets a,b] (--values FILE [--globalvars FILE] | --request FILE)
                   [--format json|yaml] [--strict] [--release X.Y.Z] [--bundles DIR]
                                                 print the manifest, e.g. | kubectl apply -f -
  facetform serve                                serve the exec API (configured by environment, see README)
  facetform keys new NAME                        print a new API key and its API_KEYS_FILE entry
  facetform help
FILE is JSON or YAML; "-" reads standard input.`;

const commands: Record<string, (args: string[], io: Io) => Promise<number>> = {
  lint: runLint,
  build: runBuild,
  render: runRender,
  serve: runServe,
  keys: runKeys,
};

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    io.out(USAGE + '\n');
    return command === undefined ? 2 : 0;
  }
  const run = commands[command];
  if (run === undefined) {
    io.err(`facetform: unknown command "${command}"\n${USAGE}\n`);
    return 2;
  }
  try {
    return await run(args, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`facetform ${command}: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
