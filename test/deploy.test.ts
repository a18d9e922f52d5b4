/** The Kubernetes manifests under deploy/ and the Dockerfile, checked as a cluster and a reader would. */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { parseAllDocuments } from 'yaml';
import { checkManifest } from '../src/manifest/kube-check.js';
import { readTrustedKeys } from '../src/oci/signature.js';
import { ApiKeys } from '../src/server/api-keys.js';
import { readConfig, SETTINGS } from '../src/server/config.js';
import { ROOT, tempDir } from './helpers/repos.js';
import { withoutKubectl } from './helpers/tools.js';

const DEPLOY = path.join(ROOT, 'deploy');
const documents = (text: string) => parseAllDocuments(text).map((document) => document.toJS() as Record<string, any>);

describe('deploy/', () => {
  it('holds manifests that kubernetes-models accepts, document by document', async () => {
    const files = readdirSync(DEPLOY).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml');
    expect(files.sort()).toEqual(['deployment.yaml', 'hpa.yaml', 'network-policy.yaml', 'pdb.yaml', 'redis.yaml', 'service.yaml']);
    for (const file of files) {
      for (const manifest of documents(readFileSync(path.join(DEPLOY, file), 'utf8'))) {
        expect(await checkManifest(manifest), `${file} ${manifest.kind}`).toEqual({ checked: true, errors: [] });
      }
    }
  });

  it.skipIf(withoutKubectl)(
    'follows a registry: every env name is a server setting, the trust key comes from its Secret, pulled releases go to a writable emptyDir seeded from the image',
    () => {
      const built = documents(execFileSync('kubectl', ['kustomize', DEPLOY], { encoding: 'utf8' }));
      const app = built.find((manifest) => manifest.kind === 'Deployment' && manifest.metadata.name === 'facetform')!;
      const pod = app.spec.template.spec;
      const container = pod.containers[0];
      const env = (name: string) => container.env.find((entry: { name: string }) => entry.name === name)?.value as string;
      for (const { name } of container.env) expect(SETTINGS.includes(name) || name === 'NODE_OPTIONS', name).toBe(true);
      expect(
        readConfig({
          ...Object.fromEntries(container.env.filter((e: any) => e.value !== undefined).map((e: any) => [e.name, e.value])),
          BUNDLES_DIR: '',
          TRUST_KEY_FILE: path.join(DEPLOY, 'trust.pub'),
          API_KEYS_FILE: '',
        }).bundlesFrom?.place,
      ).toBeDefined();
      const mountOf = (spec: any, volume: string) => spec.volumeMounts.find((mount: { name: string }) => mount.name === volume)?.mountPath;
      const volumeOf = (predicate: (volume: any) => boolean) => pod.volumes.find(predicate).name as string;
      const trustSecret = built.find((manifest) => manifest.kind === 'Secret' && manifest.metadata.name.startsWith('facetform-trust-key'))!;
      const trustVolume = volumeOf((volume) => volume.secret?.secretName === trustSecret.metadata.name);
      expect(path.posix.join(mountOf(container, trustVolume), Object.keys(trustSecret.data)[0]!)).toBe(env('TRUST_KEY_FILE'));
      const bundlesVolume = volumeOf((volume) => volume.emptyDir !== undefined);
      expect(mountOf(container, bundlesVolume)).toBe(env('BUNDLES_DIR'));
      // The initContainer copies the image's dist/ (the Dockerfile's WORKDIR and COPY) into that folder.
      const init = pod.initContainers[0];
      expect(mountOf(init, bundlesVolume)).toBe(env('BUNDLES_DIR'));
      const workdir = /^WORKDIR (\S+)$/m.exec(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').split('AS runtime')[1]!)![1]!;
      expect(init.command).toEqual(['cp', '-R', `${workdir}/dist/.`, `${env('BUNDLES_DIR')}/`]);
      expect(readTrustedKeys(path.join(DEPLOY, Object.keys(trustSecret.data)[0]!))).toHaveLength(1);
    },
  );

  it.skipIf(withoutKubectl)(
    'builds with kubectl kustomize into the app, its Service, autoscaler, disruption budget, Redis and key file',
    async () => {
      const built = documents(execFileSync('kubectl', ['kustomize', DEPLOY], { encoding: 'utf8' }));
      expect(built.map((manifest) => `${manifest.kind}/${manifest.metadata.name.replace(/-[a-z0-9]{10}$/, '')}`).sort()).toEqual([
        'Deployment/facetform',
        'Deployment/facetform-redis',
        'HorizontalPodAutoscaler/facetform',
        'NetworkPolicy/facetform',
        'NetworkPolicy/facetform-redis',
        'PodDisruptionBudget/facetform',
        'Secret/facetform-api-keys',
        'Secret/facetform-trust-key',
        'Service/facetform',
        'Service/facetform-redis',
      ]);
      for (const manifest of built) {
        // kustomize folds long base64 over lines; the API server's decoder skips the newlines, the
        // "byte" format of kubernetes-models does not.
        if (manifest.kind === 'Secret')
          for (const name of Object.keys(manifest.data)) manifest.data[name] = manifest.data[name].replace(/\s/g, '');
        expect(await checkManifest(manifest), manifest.kind).toEqual({ checked: true, errors: [] });
      }
      const app = built.find((manifest) => manifest.kind === 'Deployment' && manifest.metadata.name === 'facetform')!;
      const container = app.spec.template.spec.containers[0];
      // The image tag is facetform's version, as docs/deploy.md builds and runs it.
      const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
      expect(container.image).toBe(`facetform:${version}`);
      const deployDoc = readFileSync(path.join(ROOT, 'docs/deploy.md'), 'utf8');
      expect([...deployDoc.matchAll(/\bfacetform:(\d[\w.-]*)/g)].map((match) => match[1])).toEqual([version, version]);
      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      // The server's default port, set as PORT too, so the image's own default cannot drift from it.
      const port = readConfig({}).port;
      expect(container.ports).toEqual([{ name: 'http', containerPort: port }]);
      expect(container.env).toContainEqual({ name: 'PORT', value: String(port) });
      expect(container.env).toContainEqual({ name: 'REDIS_URL', value: 'redis://facetform-redis:6379' });
      const secret = built.find((manifest) => manifest.kind === 'Secret')!;
      expect(app.spec.template.spec.volumes[0].secret.secretName).toBe(secret.metadata.name);
      expect(app.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
      const pdb = built.find((manifest) => manifest.kind === 'PodDisruptionBudget')!;
      expect(pdb.spec.selector.matchLabels).toEqual(app.spec.selector.matchLabels);
    },
  );

  it.skipIf(withoutKubectl)(
    'leaves the replica count to the autoscaler, spreads replicas, pins Redis and lets only the app reach it',
    () => {
      const built = documents(execFileSync('kubectl', ['kustomize', DEPLOY], { encoding: 'utf8' }));
      const find = (kind: string, name: string) => built.find((manifest) => manifest.kind === kind && manifest.metadata.name === name)!;
      const app = find('Deployment', 'facetform');
      const hpa = find('HorizontalPodAutoscaler', 'facetform');
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: app.metadata.name });
      // A count in the Deployment would be applied over the autoscaler's on every apply.
      expect(app.spec.replicas).toBeUndefined();
      const podLabels = app.spec.template.metadata.labels;
      const spread = app.spec.template.spec.topologySpreadConstraints as Array<Record<string, any>>;
      expect(spread.map((constraint) => constraint.topologyKey).sort()).toEqual(['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);
      for (const constraint of spread)
        expect(Object.entries(constraint.labelSelector.matchLabels).every(([name, value]) => podLabels[name] === value)).toBe(true);

      const redis = find('Deployment', 'facetform-redis');
      expect(redis.spec.template.spec.containers[0].image).toMatch(/^redis:\d+\.\d+\.\d+(-[a-z0-9.]+)?(@sha256:[0-9a-f]{64})?$/);
      const redisPolicy = find('NetworkPolicy', 'facetform-redis');
      const redisLabels = redis.spec.template.metadata.labels;
      expect(Object.entries(redisPolicy.spec.podSelector.matchLabels).every(([name, value]) => redisLabels[name] === value)).toBe(true);
      expect(redisPolicy.spec.policyTypes).toEqual(['Ingress']);
      // One rule: from the app's pods only, to Redis's port only.
      expect(redisPolicy.spec.ingress).toHaveLength(1);
      const [rule] = redisPolicy.spec.ingress;
      expect(rule.from).toEqual([{ podSelector: { matchLabels: app.spec.selector.matchLabels } }]);
      expect(rule.ports).toEqual([
        {
          protocol: 'TCP',
          port: Number(
            new URL(app.spec.template.spec.containers[0].env.find((entry: { name: string }) => entry.name === 'REDIS_URL').value).port,
          ),
        },
      ]);
    },
  );

  it.skipIf(withoutKubectl)(
    'offers a ServiceMonitor, as a component, that the Prometheus Operator accepts and that scrapes the app with a key',
    async () => {
      const overlay = tempDir('facetform-overlay-');
      writeFileSync(
        path.join(overlay, 'kustomization.yaml'),
        `resources: [${path.relative(overlay, DEPLOY)}]\ncomponents: [${path.relative(overlay, path.join(DEPLOY, 'components/prometheus-operator'))}]\n`,
      );
      const built = documents(execFileSync('kubectl', ['kustomize', overlay], { encoding: 'utf8' }));
      const monitor = built.find((manifest) => manifest.kind === 'ServiceMonitor')!;
      expect(() => new ServiceMonitor(monitor as never).validate()).not.toThrow();
      const service = built.find((manifest) => manifest.kind === 'Service' && manifest.metadata.name === 'facetform')!;
      expect(Object.entries(monitor.spec.selector.matchLabels).every(([name, value]) => service.metadata.labels[name] === value)).toBe(
        true,
      );
      const [endpoint] = monitor.spec.endpoints;
      expect(service.spec.ports.map((port: { name: string }) => port.name)).toContain(endpoint.port);
      expect(endpoint.path).toBe('/metrics');
      // Prometheus can send a key only as Authorization; the server takes it as a Bearer token.
      expect(endpoint.authorization.type).toBe('Bearer');
    },
  );

  it('ships placeholders that say so: a key file the server refuses to start on, a registry and a trust key to replace', () => {
    // docs/deploy.md says the pods crash-loop with this message until a key is added.
    expect(() => ApiKeys.fromFile(path.join(DEPLOY, 'api-keys'))).toThrow(/holds no key, so every request would be refused \(401\)/);
    const deployDoc = readFileSync(path.join(ROOT, 'docs/deploy.md'), 'utf8');
    const from = /value: (oci:\/\/\S+)/.exec(readFileSync(path.join(DEPLOY, 'deployment.yaml'), 'utf8'))![1]!;
    expect(deployDoc).toContain(`BUNDLES_FROM=${from}`);
    expect(deployDoc).toContain('`deploy/trust.pub` is a placeholder key');
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  it('builds in one stage and runs from another with production dependencies only, as a non-root user, with a health check', () => {
    expect(dockerfile.match(/^FROM .+ AS (\w+)$/gm)).toEqual([
      'FROM node:20-bookworm-slim AS build',
      'FROM node:20-bookworm-slim AS runtime',
    ]);
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(runtime).toContain('npm ci --omit=dev');
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\n.*\/healthz/m);
    expect(runtime).toContain('COPY --from=build /app/dist ./dist');
    expect(runtime).toContain('COPY --from=build /app/src/console ./src/console');
    expect(runtime).toMatch(/^CMD \["node", "bin\/facetform.js", "serve"\]$/m);
  });
});

describe('Dockerfile', () => {
  // .dockerignore's rules as Docker reads them for plain paths: the last rule that matches a path or a
  // folder above it decides, and `!` lets it back in.
  const ignored = (file: string): boolean => {
    let out = false;
    for (const line of readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n')) {
      const rule = line.trim();
      if (rule === '' || rule.startsWith('#')) continue;
      const negated = rule.startsWith('!');
      const pattern = negated ? rule.slice(1) : rule;
      if (file === pattern || file.startsWith(`${pattern}/`)) out = !negated;
    }
    return out;
  };

  it('copies nothing that .dockerignore leaves out of the build context', () => {
    const sources = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')
      .split('\n')
      .filter((line) => /^COPY\s/.test(line) && !line.includes('--from='))
      .flatMap((line) => line.trim().split(/\s+/).slice(1, -1))
      .map((source) => source.replace(/^\.\//, '').replace(/\/$/, ''));
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter(ignored)).toEqual([]);
  });
});
