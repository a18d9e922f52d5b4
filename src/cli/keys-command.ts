/** `facetform keys new NAME`: a fresh key, and the line for API_KEYS_FILE that holds only its hash. */
import { keyFileEntry, newKey } from '../server/api-keys.js';
import { CliError, type Io, parseCommandArgs } from './io.js';

export async function runKeys(args: string[], io: Io): Promise<number> {
  const { positionals } = parseCommandArgs(args, {}, true);
  const [action, name] = positionals;
  if (action !== 'new' || name === undefined || positionals.length !== 2) throw new CliError('usage: facetform keys new NAME');
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new CliError(`NAME "${name}" may hold letters, digits, ".", "_" and "-" only`);
  const key = newKey();
  io.out(
    `key:        ${key}\nfile entry: ${keyFileEntry(name, key)}\n\nGive ` +
      `the key to its user; append the file entry to API_KEYS_FILE. ` +
      `The key is not stored anywhere.\n`,
  );
  return 0;
}
