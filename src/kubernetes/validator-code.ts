/**
 * kubernetes-models' validators are ajv's code, compiled before it ships, and merge each item's
 * errors into a list's with Array.concat: a list of n failing items copies n²/2 errors (80,000
 * unsupported ipFamilies, a 400 KB body, took 71 s). Their modules are loaded with that merge
 * rewritten to append in place, as the input validators' code is (append-errors.ts): the
 * same errors in the same order, in linear time.
 */
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { appendErrorsInPlace } from './append-errors.js';

type Loader = (module: { _compile(code: string, filename: string): void }, filename: string) => void;

let folders: string[] | undefined;

/** From now on, a module under `folder` (kubernetes-models' validators) loads with its errors appended in place. */
export function appendErrorsOnLoad(folder: string): void {
  const within = folder.endsWith(path.sep) ? folder : folder + path.sep;
  if (folders !== undefined) {
    if (!folders.includes(within)) folders.push(within);
    return;
  }
  folders = [within];
  // CommonJS's loader for .js files, the one place where a module's code can be read before it is compiled.
  const extensions = (Module as unknown as { _extensions: Record<string, Loader> })._extensions;
  const load = extensions['.js']!;
  extensions['.js'] = (module, filename) => {
    if (!folders!.some((prefix) => filename.startsWith(prefix))) return load(module, filename);
    module._compile(appendErrorsInPlace(readFileSync(filename, 'utf8')), filename);
  };
}
