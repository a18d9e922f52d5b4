/**
 * The tools teams run today, installed by the bench itself so that the comparison is with the real
 * thing: Helm and kubeconform, pinned, built with `go install` into a cache folder and reused from
 * there. Without Go the peer rows are skipped, never failed: `npm run bench` must run anywhere.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export const HELM = 'helm.sh/helm/v4/cmd/helm@v4.3.1';
export const KUBECONFORM = 'github.com/yannh/kubeconform/cmd/kubeconform@v0.7.0';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Per version, so that changing a pin builds the new one instead of reusing the old binary. */
const cacheBin = (module: string) =>
  path.join(ROOT, 'node_modules/.cache/facetform/peers', module.split('@')[1]!, path.basename(module.split('@')[0]!));

export interface Peers {
  helm: string;
  kubeconform: string;
}

/** The binaries, building those not built yet; undefined (with the reason logged) when Go is missing. */
export function installPeers(log: (text: string) => void): Peers | undefined {
  const wanted = [HELM, KUBECONFORM].map((module) => ({ module, binary: cacheBin(module) }));
  const missing = wanted.filter(({ binary }) => !existsSync(binary));
  if (missing.length > 0) {
    const go = spawnSync('go', ['version'], { encoding: 'utf8' });
    if (go.error !== undefined || go.status !== 0) {
      log(`peers skipped: Go is missing (no \`go\` on PATH), so Helm and kubeconform cannot be installed`);
      return undefined;
    }
    for (const { module, binary } of missing) {
      log(`installing ${module} with go install (minutes the first time) …`);
      mkdirSync(path.dirname(binary), { recursive: true });
      // GOFLAGS=-buildvcs=false: the module cache holds no VCS data to stamp.
      const built = spawnSync('go', ['install', module], {
        env: { ...process.env, GOBIN: path.dirname(binary), GOFLAGS: '-buildvcs=false' },
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
      });
      if (built.status !== 0 || !existsSync(binary)) throw new Error(`go install ${module} failed: ${built.stderr}`);
    }
  }
  const [helm, kubeconform] = wanted.map(({ binary }) => binary) as [string, string];
  return { helm, kubeconform };
}

// Runnable alone: `npx tsx scripts/bench/peers.ts` installs them and prints where they are.
if (import.meta.url === `file://${process.argv[1]}`) console.log(installPeers((text) => process.stderr.write(`${text}\n`)));
