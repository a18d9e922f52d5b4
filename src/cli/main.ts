/** `facetform`: lint, build and render offline. Each command lives in its own module. */
import { closestName, didYouMean } from '../util/did-you-mean.js';
import { PACKAGE_VERSION } from '../util/package-version.js';
import { CliError, type Io, processIo } from './io.js';
import { commandUsage } from './usage.js';

export const USAGE = `Usage:
  facetform lint   [--repos DIR]                 check every repository (default repos/)
  facetform build  [--repos DIR] [--out DIR]     lint, then write bundles (default dist/)
  facetform render <repository>/<collection> [--facets a,b] (--values FILE [--globalvars FILE] | --request FILE)
                   [--format json|yaml] [--strict] [--api-version v1] [--release X.Y.Z] [--bundles DIR]
                                                 print the manifest, e.g. | kubectl apply -f -
  facetform render --batch FILE [--format json|yaml] [--strict] [--bundles DIR]
                                                 several resources: a List, or YAML documents
  facetform diff   [REPOSITORY...] [--from RELEASE] [--to RELEASE] [--repos DIR] [--bundles DIR] [--format text|json]
                                                 what callers get from a release: the rendered output of an earlier
                                                 release's examples and generated requests, each difference classified
  facetform krm                                  a KRM function: a ResourceList on standard input, its request items
                                                 and those its FacetformGenerator names rendered on standard output
  facetform generate GENERATOR                   the manifests of the request files a FacetformGenerator file names,
                                                 as YAML documents (what the kustomize exec plugin runs)
  facetform argocd generate                      the manifests of the request files in the working folder, as Argo CD's
                                                 config management plugin (PARAM_STRICT, PARAM_REQUESTS; the server
                                                 from FACETFORM_SERVER)
  facetform push   <repository>[/<apiVersion>][@<release>] oci://HOST/PATH [--sign KEY] [--bundles DIR] [--insecure]
                   [--username USER --password-stdin]
                                                 releases from the bundles folder to an OCI registry, signed with --sign
  facetform pull   <repository>[/<apiVersion>][@<release>] oci://HOST/PATH [--trust-key FILE] [--bundles DIR] [--insecure]
                   [--username USER --password-stdin]
                                                 a release from an OCI registry into the bundles folder, digests and
                                                 (with a trust key) its signature checked
  facetform serve                                serve the exec API (configured by environment, see docs/server.md)
  facetform dev    [--repos DIR] [--port N]      serve the working tree of repos/ as an unreleased preview, rebuilt on every save
  facetform keys new NAME                        print a new API key and its API_KEYS_FILE entry
  facetform help | <command> --help              this text, or one command's part of it
  facetform version | --version                  print the version
FILE is JSON or YAML (a .json file JSON only); "-" reads standard input.`;

type Command = (args: string[], io: Io) => Promise<number>;

// Each command loads its own modules: serving never loads the build's TypeScript compiler.
const commands: Record<string, () => Promise<Command>> = {
  lint: async () => (await import('./lint-command.js')).runLint,
  build: async () => (await import('./build-command.js')).runBuild,
  render: async () => (await import('./render-command.js')).runRender,
  diff: async () => (await import('./diff-command.js')).runDiff,
  serve: async () => (await import('./serve-command.js')).runServe,
  dev: async () => (await import('./dev-command.js')).runDev,
  keys: async () => (await import('./keys-command.js')).runKeys,
  krm: async () => (await import('./krm-command.js')).runKrm,
  generate: async () => (await import('./generate-command.js')).runGenerate,
  argocd: async () => (await import('./argocd-command.js')).runArgocd,
  push: async () => (await import('./push-command.js')).runPush,
  pull: async () => (await import('./pull-command.js')).runPull,
};

// What a command's --help says after its usage lines, where it has more to say; loaded only when asked.
const details: Record<string, () => Promise<string>> = {
  serve: async () => (await import('./serve-command.js')).serveHelp(),
};

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    io.out(USAGE + '\n');
    return command === undefined ? 2 : 0;
  }
  if (command === 'version' || command === '--version') {
    io.out(`facetform ${PACKAGE_VERSION}\n`);
    return 0;
  }
  const load = Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (load === undefined) {
    const suggestion = closestName(command, [...Object.keys(commands), 'help', 'version']);
    io.err(`facetform: unknown command "${command}"${didYouMean(suggestion)}\n${USAGE}\n`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.out(commandUsage(USAGE, command) + (Object.hasOwn(details, command) ? `\n${await details[command]!()}` : ''));
    return 0;
  }
  try {
    let run: Command;
    try {
      run = await load();
    } catch (error) {
      // lint and build use the development dependencies (the TypeScript compiler, kubernetes-models, …).
      if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') {
        throw new CliError(
          `${command} needs the development dependencies, which are not ` +
            `installed: run npm install without --omit=dev (${(error as Error).message.split('\n')[0]})`,
        );
      }
      throw error;
    }
    return await run(args, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`facetform ${command}: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
