/**
 * Timing helpers. Every comparison runs its candidates in alternating rounds in one process and
 * takes each candidate's median, because these machines are shared and absolute times wander.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface Candidate {
  name: string;
  run: () => unknown;
}

/** Keeps results alive so the JIT cannot drop the work. */
const sink: unknown[] = new Array(64);

function nsPerOp(run: () => unknown, iterations: number): number {
  const start = process.hrtime.bigint();
  for (let index = 0; index < iterations; index++) sink[index & 63] = run();
  return Number(process.hrtime.bigint() - start) / iterations;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Nanoseconds per operation for each candidate, after a warm-up, median of `rounds` interleaved rounds. */
export function compareInProcess(candidates: Candidate[], options: { rounds: number; roundMs: number }): Record<string, number> {
  const iterations = new Map<string, number>();
  for (const candidate of candidates) {
    // Warm-up, and size a batch to last about roundMs.
    let count = 100;
    let elapsed = 0;
    while (elapsed < options.roundMs / 4) {
      count *= 2;
      elapsed = (nsPerOp(candidate.run, count) * count) / 1e6;
    }
    iterations.set(candidate.name, Math.max(1000, Math.round((count * options.roundMs) / Math.max(elapsed, 1e-3))));
  }
  const samples = new Map(candidates.map((candidate) => [candidate.name, [] as number[]]));
  for (let round = 0; round < options.rounds; round++) {
    for (const candidate of candidates) samples.get(candidate.name)!.push(nsPerOp(candidate.run, iterations.get(candidate.name)!));
  }
  return Object.fromEntries([...samples].map(([name, values]) => [name, median(values)]));
}

export interface Spawned {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** Starts a server process and waits for the line that gives its URL. */
export function spawnUntilUrl(command: string, args: string[], env: Record<string, string>): Promise<Spawned> {
  const child = spawn(command, args, { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (match)
        resolve({
          child,
          url: match[1]!,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
    });
    child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${stderr}`)));
  });
}

export function rssOf(pid: number): Promise<number> {
  return import('node:fs/promises').then(async ({ readFile }) => {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
  });
}

/** CPU time the process has used, user and system, in microseconds (Linux: /proc, 100 ticks a second). */
export async function cpuMicrosOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
