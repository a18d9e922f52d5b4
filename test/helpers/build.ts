/** Building repositories into a temporary dist/ through the real CLI command, in process. */
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';
import { tempDir } from './repos.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], stdin = ''): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: Io = { out: (text) => void (stdout += text), err: (text) => void (stderr += text), readStdin: async () => stdin };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** Builds `repos` into a fresh folder and returns it; throws with the lint output on failure. */
export async function buildInto(repos: string, out = tempDir('facetform-dist-')): Promise<string> {
  const run = await runCli(['build', '--repos', repos, '--out', out]);
  if (run.code !== 0) throw new Error(`build failed:\n${run.stderr}`);
  return out;
}
