/**
 * Following a registry (BUNDLES_FROM) from a test: the repository of dist/ with the most releases, pushed
 * by the real CLI, and what a test asks of the real server process that follows it (its releases,
 * renders, /readyz, /metrics and log lines).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ServerProcess } from './process.js';
import { committedReleases, repositoriesIn, ROOT } from './repos.js';
import { BASE, KEY } from './server.js';

export const POLL_SECONDS = 1;
/**
 * A release pushed is served after the next poll, its pull and a reload: a bound in seconds that only
 * a poll that never comes can miss (a busy shared machine must not fail it; how fast is the bench's part).
 */
export const SERVED_WITHIN = POLL_SECONDS + 10;

/** The repository with the most releases in dist/, and those releases, oldest first: the tests need three. */
export const REPOSITORY = repositoriesIn()
  .map(({ name }) => name)
  .sort((a, b) => committedReleases(b).length - committedReleases(a).length)[0]!;
export const RELEASES = committedReleases(REPOSITORY);
export const LATEST = RELEASES.at(-1)!;
export const BEFORE_LATEST = RELEASES.slice(0, -1);
const index = JSON.parse(readFileSync(path.join(ROOT, 'dist/index.json'), 'utf8')) as {
  bundles: Array<{ repository: string; apiVersion: string; collections: string[] }>;
};
/** A collection every release of the repository has. */
export const COLLECTION = index.bundles
  .filter((entry) => entry.repository === REPOSITORY && entry.apiVersion === 'v1')
  .map((entry) => entry.collections)
  .reduce((common, collections) => common.filter((name) => collections.includes(name)))[0]!;
export const collectionPath = `${BASE}/${REPOSITORY}/v1/resources/collections/${COLLECTION}`;

/** `facetform push REPOSITORY@release place --insecure [--sign key]`, run as a user runs it; its output line. */
export async function push(place: string, release: string, key?: string, env: Record<string, string> = {}): Promise<string> {
  const args = ['bin/facetform.js', 'push', `${REPOSITORY}@${release}`, place, '--insecure', ...(key ? ['--sign', key] : [])];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH, ...env } });
  return stdout;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` gives a value other than undefined; that value, and the seconds it took. */
export async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, seconds: number, what: string) {
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    const value = await check();
    if (value !== undefined) return { value, seconds: (performance.now() - started) / 1000 };
    await sleep(100);
  }
  throw new Error(`not within ${seconds} s: ${what}`);
}

export const get = (server: ServerProcess, route: string) => fetch(server.url + route, { headers: { 'X-APIKEY': KEY } });

export interface Readiness {
  status: string;
  detail?: string;
  registry: { reachable: boolean | null; error?: string; refused: Record<string, string>; pulled: number };
}
export const readyz = async (server: ServerProcess) => {
  const answer = await get(server, '/readyz');
  return { status: answer.status, body: (await answer.json()) as Readiness };
};

/** The first example of the collection as the latest served release describes it: a body that release renders. */
export async function exampleBody(server: ServerProcess): Promise<string> {
  const described = (await (await get(server, collectionPath)).json()) as { examples: Array<{ request: unknown }> };
  return JSON.stringify(described.examples[0]!.request);
}

/** An exec of the latest release over a connection of its own: its status and the release that answered. */
export function exec(server: ServerProcess, body: string, requestId?: string): Promise<{ status: number; release: string | undefined }> {
  const headers = {
    'Content-Type': 'application/json',
    'X-APIKEY': KEY,
    ...(requestId === undefined ? {} : { 'X-Request-Id': requestId }),
  };
  return new Promise((resolve, reject) => {
    const sent = httpRequest(server.url + collectionPath + '/exec', { method: 'POST', agent: false, headers }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve({ status: answer.statusCode!, release: answer.headers['x-facetform-release'] as string | undefined }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The releases of the repository the server lists, from discovery. */
export async function listedReleases(server: ServerProcess): Promise<string[]> {
  type Listed = { repositories: Array<{ name: string; apiVersions: Array<{ releases: string[] }> }> };
  const listed = (await (await get(server, BASE)).json()) as Listed;
  return listed.repositories.find((repository) => repository.name === REPOSITORY)?.apiVersions[0]?.releases ?? [];
}

/** The server's JSON log lines with message `text`. */
export const logLines = (server: ServerProcess, text: string) =>
  server
    .stdout()
    .split('\n')
    .filter((line) => line.includes(`"msg":"${text}`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** The server's count of polls that failed, with the metrics text it came from. */
export async function failedPolls(server: ServerProcess): Promise<{ text: string; failed: number }> {
  const text = await (await get(server, '/metrics')).text();
  return { text, failed: Number(/^facetform_registry_polls_total\{outcome="failed"\} (\d+)$/m.exec(text)?.[1] ?? 0) };
}
