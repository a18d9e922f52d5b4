// The CLI packed by esbuild into a few ESM files (lib/packed/), made from tsc's output in lib/: a process that
// loads ~400 module files spends most of its start-up finding, reading and compiling them, and the
// packed CLI takes start-up to the first answer from about 2.5x a bare Koa server to about 1.8x
// (issue 20). lib/ stays: the console is served from it, and code reads files relative to lib/<folder>/
// (two levels down, as lib/packed/ is). Packages loaded through createRequire stay in node_modules.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// Chunk names carry a hash of their content: last build's would stay beside this one's.
rmSync('lib/packed', { recursive: true, force: true });
await build({
  entryPoints: ['lib/cli/main.js'],
  outdir: 'lib/packed',
  bundle: true,
  splitting: true, // the commands' dynamic imports stay separate chunks, loaded only when run
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // The build's TypeScript tooling: large, and loaded only by `build` on a type change.
  // jsonc-parser's UMD build requires its own files by relative path, which a bundle cannot follow;
  // write-file-atomic names its temporary files from CommonJS's __filename, which an ESM bundle lacks.
  external: ['typescript', 'ts-json-schema-generator', 'prettier', 'jsonc-parser', 'write-file-atomic'],
  // CommonJS packages inside an ESM bundle call require.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  logLevel: 'warning',
});
