/**
 * `facetform generate CONFIG`: the manifests of the request files a FacetformGenerator names, as a
 * YAML stream. Kustomize's exec plugin (gitops/kustomize/plugin/…) runs it with the generator's file.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { parseGeneratorConfig, rendererOf } from '../gitops/generator-config.js';
import { GitopsError } from '../gitops/gitops-error.js';
import { generateManifests, type Generated } from '../gitops/manifest-stream.js';
import { readRequestEntries } from '../gitops/request-source.js';
import { CliError, type Io, parseCommandArgs } from './io.js';

export async function runGenerate(args: string[], io: Io): Promise<number> {
  const { positionals } = parseCommandArgs(args, {}, true);
  if (positionals.length !== 1) throw new CliError('name one FacetformGenerator file, e.g. facetform generate generator.yaml');
  const file = positionals[0]!;
  let text: string;
  try {
    text = file === '-' ? await io.readStdin() : readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read generator file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  // Kustomize runs the plugin in the kustomization's folder, with a copy of the config elsewhere: paths are the folder's.
  const base = process.cwd();
  return printGenerated(io, async () => {
    let value: unknown;
    try {
      value = parseYaml(text, { uniqueKeys: true });
    } catch (error) {
      throw new GitopsError(`generator file ${file} is not YAML: ${(error as Error).message.split('\n')[0]}`);
    }
    const config = parseGeneratorConfig(value, file);
    const renderer = rendererOf(config, base, process.env);
    return generateManifests(readRequestEntries(base, config.requests ?? []), renderer, { strict: config.strict ?? false });
  });
}

/** Manifests on standard output, problems on standard error; what stops the command before rendering, an error exiting 1. */
export async function printGenerated(io: Io, generate: () => Promise<Generated>): Promise<number> {
  try {
    const generated = await generate();
    io.err(generated.stderr);
    io.out(generated.stdout);
    return generated.exitCode;
  } catch (error) {
    if (error instanceof GitopsError) throw new CliError(error.message, 1);
    throw error;
  }
}
