/** A real redis-server (Debian's package) on a free port, for the shared rate-limit tests. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { ServerProcess } from './process.js';
import { collectionOfKind } from './repos.js';
import { execPath } from './server.js';

export const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface RedisServer {
  process: ChildProcess;
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open and nothing is answered, as with a hung Redis. */
  pause(): void;
  /** Lets a paused process run again (SIGCONT). */
  resume(): void;
}

export function startRedis(port: number): Promise<RedisServer> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        resolve({
          process: child,
          port,
          url: `redis://127.0.0.1:${port}`,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGKILL');
            }),
          pause: () => child.kill('SIGSTOP'),
          resume: () => child.kill('SIGCONT'),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
}

/** How many rate-limit takes (the Lua script, EVALSHA or EVAL) Redis has run, from INFO commandstats. */
export function takesRun(redis: RedisServer): number {
  const info = spawnSync('redis-cli', ['-p', String(redis.port), 'info', 'commandstats'], { encoding: 'utf8', timeout: 5000 }).stdout;
  return [...info.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
}

/** Lines of the server's log holding `text`, once at least one does (or after `timeoutMs`). */
export async function logged(server: ServerProcess, text: string, timeoutMs = 10_000): Promise<number> {
  const count = () =>
    server
      .stdout()
      .split('\n')
      .filter((line) => line.includes(text)).length;
  for (let waited = 0; count() === 0 && waited < timeoutMs; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  return count();
}

// A request the API server takes (a ClusterIP Service with its ports): the seed of the Service collection.
const service = collectionOfKind('Service');

/** The status of the Service seed sent to exec with `key`; 0 when no answer came. */
export const sendSeed = (server: ServerProcess, key: string): Promise<number> =>
  fetch(server.url + execPath(service.repository, service.collection), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-APIKEY': key },
    body: JSON.stringify(service.seed),
  }).then(
    (response) => response.status,
    () => 0,
  );
