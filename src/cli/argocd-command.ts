/** `facetform argocd generate`: Argo CD's config management plugin command (src/gitops/argocd.ts, gitops/argocd/plugin.yaml). */
import { argocdGenerate } from '../gitops/argocd.js';
import { printGenerated } from './generate-command.js';
import { CliError, type Io, parseCommandArgs } from './io.js';

export async function runArgocd(args: string[], io: Io): Promise<number> {
  const { positionals } = parseCommandArgs(args, {}, true);
  if (positionals.length !== 1 || positionals[0] !== 'generate') throw new CliError('the one argocd command is: facetform argocd generate');
  // The repo server runs the plugin in the application's folder.
  return printGenerated(io, () => argocdGenerate(process.cwd(), process.env));
}
