/** `facetform krm`: the KRM function, a ResourceList in on standard input and out on standard output (src/gitops/resource-list.ts). */
import { runResourceList } from '../gitops/resource-list.js';
import { type Io, parseCommandArgs } from './io.js';

export async function runKrm(args: string[], io: Io): Promise<number> {
  parseCommandArgs(args, {});
  // Relative paths of the functionConfig are the kustomization's: kustomize and kpt run functions there.
  const run = await runResourceList(await io.readStdin(), process.cwd(), process.env);
  io.err(run.stderr);
  io.out(run.output);
  return run.exitCode;
}
