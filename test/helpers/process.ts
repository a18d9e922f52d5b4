/** The server as its own process, started the way `npm start` starts it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './repos.js';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

const started = new Set<ChildProcess>();

/** Kills every server this file started that still runs: for afterEach, so a failed test leaves no process behind. */
export async function killServers(): Promise<void> {
  await Promise.all(
    [...started].map(async (child) => {
      started.delete(child);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    }),
  );
}

/** `stdout`: a file descriptor for the server to write its log to, instead of a pipe read into stdout(). `args`: the command, `serve` unless another (`dev --repos DIR`). */
export function spawnServer(
  env: Record<string, string>,
  readyPattern = /on (http:\/\/[^\s]+)[ \n]/,
  stdout: 'pipe' | number = 'pipe',
  args: string[] = ['serve'],
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/facetform.js'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', stdout, 'pipe'],
  });
  started.add(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => (out += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      // 'exit' may come before the last lines written to the pipes are read: wait for them to end,
      // but not for long, since a worker process may still hold them.
      const ended = [child.stdout, child.stderr].map((stream) =>
        stream === null || stream.readableEnded ? Promise.resolve() : new Promise((done) => stream.once('close', done)),
      );
      void Promise.race([Promise.all(ended), new Promise((done) => setTimeout(done, 2000))]).then(() => resolve(code));
    }),
  );
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk) => {
      err += chunk;
      const match = readyPattern.exec(err);
      if (match) resolve({ child, url: match[1]!, stdout: () => out, stderr: () => err, exited });
    });
    exited.then((code) =>
      reject(Object.assign(new Error(`server exited with ${code} before it was ready:\n${err}`), { code, stderr: err })),
    );
  });
}

/** Runs `facetform serve` expecting it to fail at start; returns exit code and stderr. */
export async function failedStart(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  try {
    const started = await spawnServer(env);
    started.child.kill('SIGKILL');
    throw new Error('the server started');
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    if (failed.stderr === undefined) throw error;
    return { code: failed.code!, stderr: failed.stderr };
  }
}

/** A process's resident memory from /proc, in bytes: now (VmRSS) and its peak so far (VmHWM). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}
