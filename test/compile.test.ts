/**
 * `npm run compile` (scripts/compile.mjs) compiles only when what lib/ is made from changed: every npm
 * script runs it first, and a stale lib/ must never run. Run on a small project of its own (the real
 * tsconfig.json and scripts, node_modules linked), so that each compile takes a second, not the
 * project's minute.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './helpers/repos.js';

let dir: string;
// Each test compiles a few times; tsc alone took 3 to 8 s a run on a busy 2-core machine.
const COMPILES = { timeout: 300_000 };

function compile(...args: string[]): { code: number | null; out: string } {
  const result = spawnSync(process.execPath, ['scripts/compile.mjs', ...args], { cwd: dir, encoding: 'utf8' });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

const UP_TO_DATE = /lib\/ is up to date/;
const packed = () => readFileSync(path.join(dir, 'lib/packed/main.js'), 'utf8');
const packedTime = () => statSync(path.join(dir, 'lib/packed/main.js')).mtimeMs;

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

beforeAll(() => {
  dir = tempDir('facetform-compile-');
  for (const file of ['package.json', 'tsconfig.json', 'scripts/compile.mjs', 'scripts/pack.mjs']) {
    cpSync(path.join(ROOT, file), path.join(dir, file), { recursive: true });
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  write('src/cli/main.ts', "import { word } from '../util/word.js';\nexport const main = (): string => word;\n");
  write('src/util/word.ts', "export const word = 'first';\n");
});

describe('npm run compile', () => {
  it('compiles a clone without lib/, then nothing until a file under src/ changes', COMPILES, () => {
    const first = compile();
    expect(first.code, first.out).toBe(0);
    expect(first.out).not.toMatch(UP_TO_DATE);
    expect(packed()).toContain('"first"');
    const before = packedTime();

    // Nothing changed, or only a file's time (a checkout, a touch): nothing is compiled.
    const again = compile();
    expect(again.out).toMatch(UP_TO_DATE);
    utimesSync(path.join(dir, 'src/util/word.ts'), new Date(), new Date(Date.now() + 5000));
    expect(compile().out).toMatch(UP_TO_DATE);
    expect(packedTime()).toBe(before);

    // A changed source is compiled and packed: the CLI never runs a stale lib/.
    write('src/util/word.ts', "export const word = 'second';\n");
    const changed = compile();
    expect(changed.code, changed.out).toBe(0);
    expect(changed.out).not.toMatch(UP_TO_DATE);
    expect(packed()).toContain('"second"');
    expect(compile().out).toMatch(UP_TO_DATE);
  });

  it('compiles again when a file is added under src/, when lib/packed/ is gone, and when asked to', COMPILES, () => {
    expect(compile().out).toMatch(UP_TO_DATE);
    write('src/util/unused.ts', 'export const unused = 1;\n');
    expect(compile().out).not.toMatch(UP_TO_DATE);

    rmSync(path.join(dir, 'lib/packed'), { recursive: true });
    const repacked = compile();
    expect(repacked.out).not.toMatch(UP_TO_DATE);
    expect(packed()).toContain('"second"');

    expect(compile('--force').out).not.toMatch(UP_TO_DATE);
  });

  it('fails on a type error, and tries again on the next run rather than trusting the failed one', COMPILES, () => {
    write('src/util/word.ts', 'export const word: number = "third";\n');
    const failed = compile();
    expect(failed.code).not.toBe(0);
    expect(failed.out).toMatch(/TS2322/);
    const still = compile();
    expect(still.code).not.toBe(0);
    expect(still.out).not.toMatch(UP_TO_DATE);

    write('src/util/word.ts', "export const word = 'fourth';\n");
    expect(compile().code).toBe(0);
    expect(packed()).toContain('"fourth"');
  });
});
