/**
 * The tools `npm run test:peers` runs that are built with Go: installed by go install at the versions
 * scripts/bench/peers.ts pins, as the bench installs its peers, once before the tests
 * (vitest.peers.config.ts globalSetup: the first build takes minutes, beyond a hook's timeout). Without
 * Go these tests fail, never skip: they are not part of `npm test`, and whoever runs them asked for them.
 */
import { installGoTools, KUSTOMIZE } from '../../scripts/bench/peers.js';

/** The binary of a pinned Go module, built now if it is not in the cache yet. */
export function goTool(module: string): string {
  const [binary] = installGoTools([module], (text) => console.log(`test:peers ${text}`)) ?? [];
  if (binary === undefined) throw new Error(`npm run test:peers needs Go 1.26 on PATH: it builds ${module} with go install`);
  return binary;
}

export default function setup(): void {
  goTool(KUSTOMIZE);
}
