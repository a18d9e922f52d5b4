/** The folder of template repositories a command reads (--repos), checked first: a wrong one is a usage error naming it, never a stack trace. */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { CliError } from './io.js';

export function reposFolder(dir: string, advice = 'give the folder that holds the template repositories with --repos DIR'): string {
  if (!existsSync(dir)) throw new CliError(`repositories folder ${path.resolve(dir)} does not exist; ${advice}`);
  if (!statSync(dir).isDirectory()) throw new CliError(`repositories folder ${path.resolve(dir)} is not a folder; ${advice}`);
  return dir;
}
