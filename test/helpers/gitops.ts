/** What the gitops tests share: the real processes they run, and the exec API's answer to a request file. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ROOT } from './repos.js';
import { BASE, execPath, type TestServer } from './server.js';

export const BIN = path.join(ROOT, 'bin/facetform.js');
export const EXAMPLE = path.join(ROOT, 'examples/kustomize');
export const PLUGIN_HOME = path.join(ROOT, 'gitops/kustomize/plugin');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A real process: `env` replaces the environment but for PATH and HOME. */
export function runProcess(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string } = {},
): Promise<Run> {
  const child = spawn(command, args, {
    cwd: options.cwd ?? ROOT,
    // KUBECONFIG: the tests' own (global-setup.ts), so kubectl reaches no server a test did not start.
    env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', KUBECONFIG: process.env.KUBECONFIG, ...options.env },
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  // A command that reads no input may be gone before it is written: EPIPE is no failure of the test.
  child.stdin.on('error', () => {});
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export const facetform = (args: string[], options: Parameters<typeof runProcess>[2] = {}) =>
  runProcess(process.execPath, [BIN, ...args], options);

export const readRequestFile = (file: string): any => parseYaml(readFileSync(file, 'utf8'));

/**
 * What the exec API answers to the request a request file holds, as the file format describes it
 * (src/request-file): a Request's spec is the exec body plus the path's names; a BatchRequest's, a
 * batch body plus the vendor.
 */
export async function execAnswer(server: TestServer, request: any, format: 'json' | 'yaml'): Promise<string> {
  const { vendor, repository, apiVersion, release, collection, ...body } = request.spec;
  let url: string;
  if (request.kind === 'Request') {
    const base =
      vendor === undefined
        ? execPath(repository, collection)
        : `/apis/repos/${vendor}/${repository}/v1/resources/collections/${collection}/exec`;
    url = `${apiVersion === undefined ? base : base.replace('/v1/', `/${apiVersion}/`)}?format=${format}${release === undefined ? '' : `&release=${release}`}`;
  } else {
    url = `${vendor === undefined ? BASE : `/apis/repos/${vendor}`}/exec?format=${format}`;
  }
  const { vendor: _vendor, ...batchBody } = request.spec;
  const response = await server.request(url, { method: 'POST', json: request.kind === 'Request' ? body : batchBody });
  if (response.status !== 200) throw new Error(`the exec API answered ${response.status}: ${await response.text()}`);
  return response.text();
}

/** The manifests of an exec answer in JSON: one, or a List's items. */
export function manifestsOf(request: any, jsonAnswer: string): any[] {
  const answer = JSON.parse(jsonAnswer);
  return request.kind === 'Request' ? [answer] : answer.items;
}
