/** What commands print to, so tests can run them in process. */
import { parseArgs, type ParseArgsConfig } from 'node:util';

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
    throw new CliError((error as Error).message);
  }
}
