import { compileRepositories } from '../compiler/compile.js';
import { type Io, parseCommandArgs } from './io.js';
import { reposFolder } from './repos-folder.js';

export async function runLint(args: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(args, { repos: { type: 'string', default: 'repos' } });
  const { report } = await compileRepositories(reposFolder(values.repos!));
  (report.errorCount > 0 ? io.err : io.out)(report.format());
  return report.errorCount > 0 ? 1 : 0;
}
