/**
 * The served OpenAPI document, for the tests of the tools that read it (openapi-client.test.ts,
 * openapi-document.test.ts): a server started for a file's tests, the document kept in a file, a
 * walk over its operations, and the tools run as commands.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, tempDir } from './repos.js';
import { startTestServer, type TestServer } from './server.js';

export type Json = Record<string, any>;

/** A server, its OpenAPI document, and a folder holding the document as openapi.json. */
export async function serveDocument(): Promise<{ server: TestServer; document: Json; work: string; documentFile: string }> {
  const server = await startTestServer();
  const text = await (await server.request('/openapi.json')).text();
  const work = tempDir('facetform-openapi-');
  const documentFile = path.join(work, 'openapi.json');
  writeFileSync(documentFile, text);
  return { server, document: JSON.parse(text), work, documentFile };
}

/** Runs a command; never throws: the exit code and output are the result. */
export async function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, output: `${failed.stdout ?? ''}${failed.stderr ?? String(error)}` };
  }
}

export const bin = (relative: string) => path.join(ROOT, 'node_modules', relative);

/** The value of a local `$ref`, or the node itself. */
export function resolved(document: Json, node: Json): Json {
  if (typeof node.$ref !== 'string') return node;
  return node.$ref
    .slice(2)
    .split('/')
    .reduce((at: Json, key: string) => at[key], document);
}

export function* operations(document: Json): Generator<{ template: string; method: string; operation: Json }> {
  for (const [template, item] of Object.entries<Json>(document.paths))
    for (const [method, operation] of Object.entries<Json>(item)) yield { template, method, operation };
}
