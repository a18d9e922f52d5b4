/** What commands print to, so tests can run them in process. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestName, didYouMean } from '../util/did-you-mean.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  readStdin(): Promise<string>;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

/** An error a user caused: printed without a stack, exit code 2 unless said otherwise. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

export function parseCommandArgs<T extends ParseArgsConfig['options']>(args: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    const unknown = /^Unknown option '([^']+)'/.exec((error as Error).message)?.[1];
    if ((error as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown !== undefined)
      throw new CliError(unknownOption(unknown, Object.keys(options ?? {})));
    throw new CliError((error as Error).message);
  }
}

/** An option the command does not take, with the one it most likely meant (by the rule of lint and the API) or the ones it takes. */
function unknownOption(given: string, names: string[]): string {
  const known = names.map((name) => `--${name}`);
  const suggestion = closestName(given, known);
  if (suggestion !== undefined) return `unknown option ${given}${didYouMean(suggestion)}`;
  return `unknown option ${given}; ${known.length === 0 ? 'the command takes none' : `the command takes ${known.join(', ')}`}`;
}
