/** The Kubernetes manifests under deploy/ and the Dockerfile, checked as a cluster and a reader would. */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { checkManifest } from '../src/manifest/kube-check.js';
import { ROOT } from './helpers/repos.js';

const DEPLOY = path.join(ROOT, 'deploy');
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
const documents = (text: string) => parseAllDocuments(text).map((document) => document.toJS() as Record<string, any>);

describe('deploy/', () => {
  it('holds manifests that kubernetes-models accepts, document by document', async () => {
    const files = readdirSync(DEPLOY).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml');
    expect(files.sort()).toEqual(['deployment.yaml', 'hpa.yaml', 'pdb.yaml', 'redis.yaml', 'service.yaml']);
    for (const file of files) {
      for (const manifest of documents(readFileSync(path.join(DEPLOY, file), 'utf8'))) {
        expect(await checkManifest(manifest), `${file} ${manifest.kind}`).toEqual({ checked: true, errors: [] });
      }
    }
  });

  it.skipIf(!hasKubectl && process.env.CI !== 'true')('builds with kubectl kustomize into the app, its Service, autoscaler, disruption budget, Redis and key file', async () => {
    const built = documents(execFileSync('kubectl', ['kustomize', DEPLOY], { encoding: 'utf8' }));
    expect(built.map((manifest) => `${manifest.kind}/${manifest.metadata.name.replace(/-[a-z0-9]{10}$/, '')}`).sort()).toEqual([
      'Deployment/facetform',
      'Deployment/facetform-redis',
      'HorizontalPodAutoscaler/facetform',
      'PodDisruptionBudget/facetform',
      'Secret/facetform-api-keys',
      'Service/facetform',
      'Service/facetform-redis',
    ]);
    for (const manifest of built) {
      // kustomize folds long base64 over lines; the API server's decoder skips the newlines, the
      // "byte" format of kubernetes-models does not.
      if (manifest.kind === 'Secret') for (const name of Object.keys(manifest.data)) manifest.data[name] = manifest.data[name].replace(/\s/g, '');
      expect(await checkManifest(manifest), manifest.kind).toEqual({ checked: true, errors: [] });
    }
    const app = built.find((manifest) => manifest.kind === 'Deployment' && manifest.metadata.name === 'facetform')!;
    const container = app.spec.template.spec.containers[0];
    expect(container.image).toBe('facetform:1.1.0');
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.ports).toEqual([{ name: 'http', containerPort: 8080 }]);
    expect(container.env).toContainEqual({ name: 'REDIS_URL', value: 'redis://facetform-redis:6379' });
    const secret = built.find((manifest) => manifest.kind === 'Secret')!;
    expect(app.spec.template.spec.volumes[0].secret.secretName).toBe(secret.metadata.name);
    expect(app.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    const pdb = built.find((manifest) => manifest.kind === 'PodDisruptionBudget')!;
    expect(pdb.spec.selector.matchLabels).toEqual(app.spec.selector.matchLabels);
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  it('builds in one stage and runs from another with production dependencies only, as a non-root user, with a health check', () => {
    expect(dockerfile.match(/^FROM .+ AS (\w+)$/gm)).toEqual(['FROM node:20-bookworm-slim AS build', 'FROM node:20-bookworm-slim AS runtime']);
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(runtime).toContain('npm ci --omit=dev');
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\n.*\/healthz/m);
    expect(runtime).toContain('COPY --from=build /app/dist ./dist');
    expect(runtime).toContain('COPY --from=build /app/src/console ./src/console');
    expect(runtime).toMatch(/^CMD \["node", "bin\/facetform.js", "serve"\]$/m);
  });
});
