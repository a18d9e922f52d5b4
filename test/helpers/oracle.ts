/**
 * The oracle (test/oracle): Kubernetes' own code (v1.33) judging manifests as the API server does
 * on create. Built once with Go into test/oracle/.bin (gitignored; rebuilt when main.go, go.mod or
 * go.sum is newer), spawned once per batch and fed many manifests: one JSON line each on stdin,
 * one verdict line each on stdout, in order.
 *
 * Also the reading of Go's field paths (`spec.ports[0].name`, `metadata.labels[app.kubernetes.io/name]`)
 * as JSON Pointers, the form our problems point with.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from './repos.js';

export const ORACLE_DIR = path.join(ROOT, 'test/oracle');
export const ORACLE_BIN = path.join(ORACLE_DIR, '.bin/oracle');
const SOURCES = ['main.go', 'go.mod', 'go.sum'];

export interface OracleInput {
  manifest: unknown;
  /** The CRD (as JSON) of a custom resource. */
  crd?: unknown;
}

export interface OracleFieldError {
  /** Go's field.Path: `spec.ports[0].name`; empty for the object itself. */
  field: string;
  /** The cause type: FieldValueInvalid, FieldValueRequired … */
  type: string;
  /** Go's error body: `Invalid value: "Bad_Name": a DNS-1035 label must …`. */
  message: string;
}

export interface OracleVerdict {
  verdict: 'accept' | 'refuse';
  errors: OracleFieldError[];
  /** Set when the manifest was not decoded (strictly): an unknown field, a wrong type. */
  decodeError?: string;
}

export type GoLookup = { found: true; go: string; version: string } | { found: false; reason: string };

/** `go` on PATH (or $GO), and its version; else why the oracle cannot be built. */
export function findGo(): GoLookup {
  const go = process.env.GO ?? 'go';
  const run = spawnSync(go, ['version'], { encoding: 'utf8' });
  if (run.error !== undefined || run.status !== 0) {
    return { found: false, reason: 'Go is not installed: the oracle needs Go 1.26 (see docs/reliability.md)' };
  }
  return { found: true, go, version: run.stdout.trim() };
}

/** A Go program of the oracle's module: its package (`.` is the oracle), its binary, the files it is built from. */
export interface GoProgram {
  name: string;
  pkg: string;
  bin: string;
  sources: string[];
  /** The environment variable naming a binary built elsewhere. */
  binEnv: string;
}

export const ORACLE: GoProgram = { name: 'the oracle', pkg: '.', bin: ORACLE_BIN, sources: SOURCES, binEnv: 'ORACLE_BIN' };

/** True when the binary is missing or older than a source of the program. */
export function oracleIsStale(bin = ORACLE_BIN, sources = SOURCES): boolean {
  if (!existsSync(bin)) return true;
  const built = statSync(bin).mtimeMs;
  return sources.some((source) => statSync(path.join(ORACLE_DIR, source)).mtimeMs > built);
}

/**
 * The oracle's binary: $ORACLE_BIN when set (a build made elsewhere), else test/oracle/.bin/oracle,
 * built when stale (the first build takes minutes: the Kubernetes code is large). Throws with the
 * reason when Go is missing or the build fails.
 */
export const buildOracle = (log: (line: string) => void = () => {}): string => buildGoProgram(ORACLE, log);

/** A program of the oracle's module, built as buildOracle builds the oracle. */
export function buildGoProgram(program: GoProgram, log: (line: string) => void = () => {}): string {
  const given = process.env[program.binEnv];
  if (given !== undefined) {
    if (!existsSync(given)) throw new Error(`${program.binEnv} ${given} does not exist`);
    return given;
  }
  if (!oracleIsStale(program.bin, program.sources)) return program.bin;
  const go = findGo();
  if (!go.found) throw new Error(go.reason);
  mkdirSync(path.dirname(program.bin), { recursive: true });
  // Built beside and renamed: a concurrent run never executes a half-written binary.
  const partial = `${program.bin}.${process.pid}.partial`;
  log(`building ${program.name} with ${go.version} into ${path.relative(ROOT, program.bin)} (the first build takes minutes)`);
  const started = Date.now();
  const build = spawnSync(go.go, ['build', '-o', partial, program.pkg], { cwd: ORACLE_DIR, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (build.error !== undefined || build.status !== 0) {
    rmSync(partial, { force: true });
    throw new Error(`${program.name} does not build (go build ${program.pkg} in test/oracle): ${build.error?.message ?? build.stderr}`);
  }
  renameSync(partial, program.bin);
  log(`built ${program.name} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return program.bin;
}

/**
 * The verdicts of `inputs`, in their order, from one run of the oracle. Every line is written while
 * the answers are read as they come, so a batch of any size streams through the pipes; the oracle
 * writes through a buffer it flushes last when its input ends, so a run is one batch (one run each).
 */
export function judge(inputs: readonly OracleInput[], bin = buildOracle()): Promise<OracleVerdict[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    const verdicts: OracleVerdict[] = [];
    let stderr = '';
    let failure: Error | undefined;
    const fail = (error: Error) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      try {
        verdicts.push(JSON.parse(line) as OracleVerdict);
      } catch (error) {
        fail(new Error(`the oracle answered a line that is not JSON: ${line.slice(0, 200)} (${(error as Error).message})`));
      }
    });
    child.on('error', (error) => fail(new Error(`the oracle (${bin}) does not run: ${error.message}`)));
    child.stdin.on('error', (error) => fail(new Error(`writing to the oracle: ${error.message}`)));
    // Both the exit and the last line read: 'close' comes after the pipes end.
    child.on('close', (code, signal) => {
      if (failure !== undefined) return reject(failure);
      if (code !== 0) return reject(new Error(`the oracle exited with ${code ?? signal}: ${stderr}`));
      if (verdicts.length !== inputs.length)
        return reject(new Error(`the oracle answered ${verdicts.length} of ${inputs.length} lines: ${stderr}`));
      resolve(verdicts);
    });
    void (async () => {
      for (const input of inputs) {
        if (failure !== undefined) return;
        const line = JSON.stringify(input.crd === undefined ? { manifest: input.manifest } : { manifest: input.manifest, crd: input.crd });
        if (!child.stdin.write(`${line}\n`)) {
          // Wait for the pipe to drain (the oracle reads as it answers), or for the oracle to end.
          await new Promise<void>((done) => {
            const drained = () => {
              child.stdin.off('drain', drained);
              child.off('close', drained);
              done();
            };
            child.stdin.on('drain', drained);
            child.on('close', drained);
          });
        }
      }
      child.stdin.end();
    })();
  });
}

/** Escapes one JSON Pointer token (RFC 6901). */
const token = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Go's field.Path string as a JSON Pointer: children joined by `.`, indices and map keys in
 * brackets (`spec.ports[0].name` → `/spec/ports/0/name`, `metadata.labels[app.kubernetes.io/name]`
 * → `/metadata/labels/app.kubernetes.io~1name`, `` → ``). A key is not escaped by Go, so it may hold
 * dots, slashes and brackets: it runs to the first `]` followed by `.`, `[` or the end.
 */
export function goPathToPointer(goPath: string): string {
  const segments: string[] = [];
  let at = 0;
  // A path that starts with a key or index has an empty root name (field.NewPath("")).
  while (at < goPath.length) {
    if (goPath[at] === '[') {
      let end = goPath.indexOf(']', at + 1);
      while (end !== -1 && end + 1 < goPath.length && goPath[end + 1] !== '.' && goPath[end + 1] !== '[') {
        end = goPath.indexOf(']', end + 1);
      }
      if (end === -1) throw new Error(`the Go field path ${JSON.stringify(goPath)} has an unclosed [ at ${at}`);
      segments.push(goPath.slice(at + 1, end));
      at = end + 1;
      if (goPath[at] === '.') at++;
      continue;
    }
    let end = at;
    while (end < goPath.length && goPath[end] !== '.' && goPath[end] !== '[') end++;
    segments.push(goPath.slice(at, end));
    at = end;
    if (goPath[at] === '.') at++;
  }
  return segments.map((segment) => `/${token(segment)}`).join('');
}
