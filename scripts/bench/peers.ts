/**
 * The tools teams run today, installed by the bench itself so that the comparison is with the real
 * thing: Helm, kubeconform, kubectl-validate (and kustomize, for `npm run test:peers`), pinned, built
 * with `go install` into a cache folder and reused from there. Without Go the peer rows are skipped,
 * never failed: `npm run bench` must run anywhere.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export const HELM = 'helm.sh/helm/v4/cmd/helm@v4.3.1';
export const KUBECONFORM = 'github.com/yannh/kubeconform/cmd/kubeconform@v0.7.0';
/** Its only tag; it validates offline with the Kubernetes schemas built into it. */
export const KUBECTL_VALIDATE = 'sigs.k8s.io/kubectl-validate@v0.0.4';

/** Standalone kustomize, for its KRM function form (`kustomize build --enable-alpha-plugins --enable-exec`). */
export const KUSTOMIZE = 'sigs.k8s.io/kustomize/kustomize/v5@v5.8.2';

const ROOT = path.resolve(import.meta.dirname, '../..');
/**
 * Per version, so that changing a pin builds the new one instead of reusing the old binary. Named as
 * go install names it: a major version suffix (`…/kustomize/v5`) is not the command's name.
 */
const cacheBin = (module: string) =>
  path.join(
    ROOT,
    'node_modules/.cache/facetform/peers',
    module.split('@')[1]!,
    path.basename(module.split('@')[0]!.replace(/\/v\d+$/, '')),
  );

/** Why Go tools cannot be installed here, or undefined when `go` runs. */
export function goMissing(): string | undefined {
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  return go.error !== undefined || go.status !== 0 ? 'Go is missing (no `go` on PATH)' : undefined;
}

/**
 * The binaries of `modules` (each `path@version`), in order, building those not built yet; undefined
 * (with the reason logged) when Go is missing and one is not built.
 */
export function installGoTools(modules: string[], log: (text: string) => void): string[] | undefined {
  const wanted = modules.map((module) => ({ module, binary: cacheBin(module) }));
  const missing = wanted.filter(({ binary }) => !existsSync(binary));
  if (missing.length > 0) {
    const reason = goMissing();
    if (reason !== undefined) {
      log(`skipped: ${reason}, so ${missing.map(({ module }) => module).join(', ')} cannot be installed`);
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
  return wanted.map(({ binary }) => binary);
}

export interface Peers {
  helm: string;
  kubeconform: string;
  kubectlValidate: string;
}

/** Helm, kubeconform and kubectl-validate, or undefined (with the reason logged) when Go is missing. */
export function installPeers(log: (text: string) => void): Peers | undefined {
  const binaries = installGoTools([HELM, KUBECONFORM, KUBECTL_VALIDATE], (text) => log(`peers ${text}`));
  if (binaries === undefined) return undefined;
  const [helm, kubeconform, kubectlValidate] = binaries as [string, string, string];
  return { helm, kubeconform, kubectlValidate };
}

// Runnable alone: `npx tsx scripts/bench/peers.ts` installs them and prints where they are.
if (import.meta.url === `file://${process.argv[1]}`) console.log(installPeers((text) => process.stderr.write(`${text}\n`)));
