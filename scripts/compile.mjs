// `npm run compile`: tsc makes lib/ from src/, then scripts/pack.mjs packs the CLI into lib/packed/.
// Every npm script that runs the CLI compiles first (prepare, prestart, prelint, prebuild, pretest),
// and both steps from scratch took 20 to 60 s on a busy machine (issue 43). So the inputs are hashed
// and the steps skipped when lib/ was made from exactly these inputs: a stamp in lib/ records their
// digest, written only after both steps succeeded. Contents, not mtimes: a checkout or a touch
// that changes no byte compiles nothing, and any changed, added or deleted file under src/ compiles.
// `npm run compile -- --force` compiles whatever the stamp says.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const STAMP = path.join(ROOT, 'lib/.compile-stamp');
// What tsc's incremental build reads to re-check only the files that changed. Inside lib/, so that
// deleting lib/ deletes it too (tsc trusts it and would emit nothing into an empty lib/).
const TS_BUILD_INFO = 'lib/.tsbuildinfo';
// The outputs the stamp vouches for: without them the steps run whatever it says.
const OUTPUTS = ['lib/cli/main.js', 'lib/packed/main.js'];

/** Every file under `dir`, as paths relative to ROOT, in a stable order. */
function filesUnder(dir) {
  const entries = readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** The digest of what lib/ is made from: the sources, the two steps, their settings and the installed packages. */
function inputDigest() {
  const hash = createHash('sha256');
  const add = (name, content) => hash.update(`${name}\0${content.length}\0`).update(content);
  for (const file of [...filesUnder('src'), 'tsconfig.json', 'scripts/pack.mjs', 'scripts/compile.mjs']) {
    add(file, readFileSync(path.join(ROOT, file)));
  }
  // Of package.json, what tsc and esbuild read: the module type and the dependencies (scripts do not matter).
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  add('package.json', Buffer.from(JSON.stringify([pkg.type, pkg.dependencies, pkg.devDependencies])));
  // npm writes this on every install: the versions really installed (TypeScript, esbuild, the packed packages).
  const installed = path.join(ROOT, 'node_modules/.package-lock.json');
  add('node_modules/.package-lock.json', existsSync(installed) ? readFileSync(installed) : Buffer.alloc(0));
  return hash.digest('hex');
}

function upToDate(digest) {
  if (!OUTPUTS.every((file) => existsSync(path.join(ROOT, file)))) return false;
  return existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === digest;
}

function step(args) {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const force = process.argv.includes('--force');
const digest = inputDigest();
if (!force && upToDate(digest)) {
  console.log('compile: lib/ is up to date with src/ (npm run compile -- --force compiles anyway)');
} else {
  if (force) rmSync(path.join(ROOT, TS_BUILD_INFO), { force: true });
  step(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', TS_BUILD_INFO]);
  step(['scripts/pack.mjs']);
  writeFileSync(STAMP, `${digest}\n`);
}
