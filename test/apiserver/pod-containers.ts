/**
 * Pods for the container rules of src/apiserver/core/pod/: valid pods (containers and init
 * containers with ports, env, volume mounts, probes and resources), and the same pods broken one
 * rule at a time. Judged by test/oracle/podspec (scripts/oracle-pod-containers-vectors.ts) into
 * test/vectors/pod-containers.jsonl.
 *
 * Left out, because their rules are not ported yet: envFrom, fieldRef and resourceFieldRef
 * selectors, volume devices, subPath, mount propagation, lifecycle handlers (but for the init
 * container that may not have one), HTTP headers, security contexts, resize policies, huge pages,
 * resource claims.
 */
import fc from 'fast-check';
import { FieldPath } from '../../src/apiserver/apimachinery/field-error.js';
import { setDefaultsPodContainers } from '../../src/apiserver/core/pod/container-defaults.js';
import { validatePodContainers } from '../../src/apiserver/core/pod/containers.js';
import { object } from '../../src/apiserver/golang/values.js';
import type { Manifest } from './case.js';

export interface PodCase {
  rule: string;
  manifest: Manifest;
}

const VOLUMES = ['data', 'config', 'cache'];
const image = fc.constantFrom(
  'nginx',
  'nginx:1.27',
  'registry.k8s.io/pause:3.9',
  'busybox:latest',
  'ghcr.io/org/app@sha256:' + 'a'.repeat(64),
);
const envName = fc.constantFrom('PORT', 'LOG_LEVEL', 'my.var', '1A', 'with-dash', 'a b');
const keyRef = fc.record({
  name: fc.constantFrom('app-config', 'db.secret', 'a'),
  key: fc.constantFrom('app.properties', 'password', 'KEY_1'),
});
const env = fc.oneof(
  fc.record({ name: envName, value: fc.constantFrom('', 'x', '8080') }),
  fc.record({
    name: envName,
    valueFrom: fc.oneof(
      keyRef.map((configMapKeyRef) => ({ configMapKeyRef })),
      keyRef.map((secretKeyRef) => ({ secretKeyRef })),
    ),
  }),
);
const handler = fc.oneof(
  fc.constant({ exec: { command: ['cat', '/tmp/healthy'] } }),
  fc.record({
    httpGet: fc.record(
      {
        port: fc.oneof(fc.integer({ min: 1, max: 65535 }), fc.constantFrom('http', 'metrics')),
        path: fc.constantFrom(undefined, '/healthz'),
        scheme: fc.constantFrom(undefined, 'HTTP', 'HTTPS'),
      },
      { requiredKeys: ['port'] },
    ),
  }),
  fc.record({ tcpSocket: fc.record({ port: fc.oneof(fc.integer({ min: 1, max: 65535 }), fc.constant('web')) }) }),
  fc.record({ grpc: fc.record({ port: fc.integer({ min: 1, max: 65535 }) }) }),
);
const probe = fc
  .tuple(
    handler,
    fc.record(
      { initialDelaySeconds: fc.nat(30), periodSeconds: fc.nat(60), timeoutSeconds: fc.nat(5), failureThreshold: fc.nat(5) },
      { requiredKeys: [] },
    ),
  )
  .map(([h, numbers]) => ({ ...h, ...numbers }));
const quantities = { cpu: ['100m', '250m', '1', '2'], memory: ['64Mi', '128Mi', '1Gi', '1.5Gi'], 'ephemeral-storage': ['1Gi', '2Gi'] };
const resources = fc
  .subarray(Object.keys(quantities) as Array<keyof typeof quantities>, { minLength: 0 })
  .chain((names) =>
    fc.tuple(
      ...names.map((name) =>
        fc.tuple(
          fc.constant(name),
          fc.integer({ min: 0, max: quantities[name].length - 1 }),
          fc.constantFrom('both', 'requests', 'limits'),
        ),
      ),
    ),
  )
  .map((entries) => {
    const requests: Record<string, string> = {};
    const limits: Record<string, string> = {};
    for (const [name, low, where] of entries) {
      const values = quantities[name];
      if (where !== 'limits') requests[name] = values[low]!;
      if (where !== 'requests') limits[name] = values[Math.min(low + 1, values.length - 1)]!;
    }
    return { ...(Object.keys(requests).length > 0 ? { requests } : {}), ...(Object.keys(limits).length > 0 ? { limits } : {}) };
  });
const ports = fc.uniqueArray(
  fc.record(
    {
      containerPort: fc.integer({ min: 1, max: 65535 }),
      name: fc.constantFrom(undefined, 'http', 'metrics', 'grpc-web', 'a-fifteen-chars'),
      protocol: fc.constantFrom(undefined, 'TCP', 'UDP', 'SCTP'),
    },
    { requiredKeys: ['containerPort'] },
  ),
  {
    maxLength: 3,
    selector: (port) => port.name ?? `#${port.containerPort}`,
  },
);

const container = fc.record(
  {
    image,
    imagePullPolicy: fc.constantFrom('Always', 'IfNotPresent', 'Never'),
    ports,
    env: fc.array(env, { maxLength: 3 }),
    volumeMounts: fc.subarray(VOLUMES).map((names) => names.map((name, i) => ({ name, mountPath: `/mnt/${name}${i}` }))),
    livenessProbe: probe,
    readinessProbe: probe,
    startupProbe: probe,
    resources,
    terminationMessagePolicy: fc.constantFrom('File', 'FallbackToLogsOnError'),
  },
  { requiredKeys: ['image'] },
);
const initContainer = fc.tuple(container, fc.boolean()).map(([c, sidecar]) => {
  if (sidecar) return { ...c, restartPolicy: 'Always' };
  const { livenessProbe: _l, readinessProbe: _r, startupProbe: _s, ...rest } = c;
  return rest;
});

/** A valid Pod: containers named apart, every mount naming a volume of the pod. */
export const validPod: fc.Arbitrary<Manifest> = fc
  .tuple(
    fc.constantFrom('web', 'api-0', 'worker.shop'),
    fc.array(container, { minLength: 1, maxLength: 2 }),
    fc.array(initContainer, { maxLength: 1 }),
  )
  .map(([name, containers, initContainers]) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'shop' },
    spec: {
      containers: containers.map((c, i) => ({ name: `app-${i}`, ...c })),
      ...(initContainers.length > 0 ? { initContainers: initContainers.map((c, i) => ({ name: `init-${i}`, ...c })) } : {}),
      volumes: VOLUMES.map((volume) => ({ name: volume, emptyDir: {} })),
    },
  }));

type Mutation = (pod: Manifest) => void;
const first = (pod: Manifest): Manifest => pod.spec.containers[0];
const withProbe = (pod: Manifest, member: string, change: (probe: Manifest) => void): void => {
  const probe = { exec: { command: ['true'] } };
  change(probe);
  first(pod)[member] = probe;
};
const withEnv =
  (entry: Manifest): Mutation =>
  (pod) =>
    void (first(pod).env = [...(first(pod).env ?? []), entry]);
const withPort =
  (port: Manifest): Mutation =>
  (pod) =>
    void (first(pod).ports = [...(first(pod).ports ?? []), port]);
const withResources =
  (resources: Manifest): Mutation =>
  (pod) =>
    void (first(pod).resources = resources);
const withMount =
  (mount: Manifest): Mutation =>
  (pod) =>
    void (first(pod).volumeMounts = [...(first(pod).volumeMounts ?? []), mount]);
const init =
  (change: (c: Manifest) => void): Mutation =>
  (pod) => {
    const c: Manifest = { name: 'setup', image: 'busybox' };
    change(c);
    pod.spec.initContainers = [...(pod.spec.initContainers ?? []), c];
  };

/** Each mistake, one rule at a time. */
export const MUTATIONS: Record<string, Mutation> = {
  'container/name-invalid': (pod) => void (first(pod).name = 'Web_1'),
  'container/name-empty': (pod) => void (first(pod).name = ''),
  'container/name-duplicate': (pod) => void pod.spec.containers.push({ ...first(pod), name: first(pod).name, ports: [] }),
  'container/none': (pod) => void (pod.spec.containers = []),
  'container/image-empty': (pod) => void delete first(pod).image,
  'container/image-whitespace': (pod) => void (first(pod).image = ' nginx '),
  'container/termination-message-policy': (pod) => void (first(pod).terminationMessagePolicy = 'Always'),
  'container/pull-policy': (pod) => void (first(pod).imagePullPolicy = 'Sometimes'),
  'container/restart-policy': (pod) => void (first(pod).restartPolicy = 'Always'),
  'port/name-too-long': withPort({ containerPort: 8443, name: 'a-very-long-port-name' }),
  'port/name-invalid': withPort({ containerPort: 8443, name: 'HTTP_2' }),
  'port/name-digits': withPort({ containerPort: 8443, name: '8443' }),
  'port/name-duplicate': (pod) =>
    void (first(pod).ports = [
      { containerPort: 80, name: 'web' },
      { containerPort: 81, name: 'web' },
    ]),
  'port/container-port-missing': withPort({ name: 'nop' }),
  'port/container-port-range': withPort({ containerPort: 70000 }),
  'port/container-port-negative': withPort({ containerPort: -1 }),
  'port/host-port-range': withPort({ containerPort: 80, hostPort: 65536 }),
  'port/protocol': withPort({ containerPort: 80, protocol: 'HTTP' }),
  'port/host-port-conflict': (pod) => {
    first(pod).ports = [{ containerPort: 80, hostPort: 8080 }];
    pod.spec.containers.push({ name: 'other', image: 'nginx', ports: [{ containerPort: 81, hostPort: 8080 }] });
  },
  'env/name-empty': withEnv({ name: '', value: 'x' }),
  'env/name-equals': withEnv({ name: 'A=B', value: 'x' }),
  'env/name-non-ascii': withEnv({ name: 'CAFÉ', value: 'x' }),
  'env/value-from-empty': withEnv({ name: 'A', valueFrom: {} }),
  'env/value-from-and-value': withEnv({ name: 'A', value: 'x', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }),
  'env/value-from-two': withEnv({
    name: 'A',
    valueFrom: { secretKeyRef: { name: 's', key: 'k' }, configMapKeyRef: { name: 'c', key: 'k' } },
  }),
  'env/key-empty': withEnv({ name: 'A', valueFrom: { configMapKeyRef: { name: 'c', key: '' } } }),
  'env/key-invalid': withEnv({ name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'a b' } } }),
  'env/ref-name-invalid': withEnv({ name: 'A', valueFrom: { configMapKeyRef: { name: 'Bad_Name', key: 'k' } } }),
  'mount/not-found': withMount({ name: 'logs', mountPath: '/var/log' }),
  'mount/name-empty': withMount({ name: '', mountPath: '/var/log' }),
  'mount/path-empty': withMount({ name: 'data', mountPath: '' }),
  'mount/path-duplicate': (pod) =>
    void (first(pod).volumeMounts = [
      { name: 'data', mountPath: '/d' },
      { name: 'cache', mountPath: '/d' },
    ]),
  'probe/two-handlers': (pod) => withProbe(pod, 'livenessProbe', (p) => void (p.httpGet = { port: 80 })),
  'probe/three-handlers': (pod) =>
    withProbe(pod, 'readinessProbe', (p) => Object.assign(p, { tcpSocket: { port: 80 }, grpc: { port: 9000 } })),
  'probe/no-handler': (pod) => withProbe(pod, 'startupProbe', (p) => void delete p.exec),
  'probe/exec-no-command': (pod) => withProbe(pod, 'livenessProbe', (p) => void (p.exec = {})),
  'probe/http-port-zero': (pod) => withProbe(pod, 'livenessProbe', (p) => void (delete p.exec, (p.httpGet = { port: 0 }))),
  'probe/http-port-name': (pod) =>
    withProbe(pod, 'readinessProbe', (p) => void (delete p.exec, (p.httpGet = { port: 'a-very-long-port-name' }))),
  'probe/http-scheme': (pod) => withProbe(pod, 'readinessProbe', (p) => void (delete p.exec, (p.httpGet = { port: 80, scheme: 'FTP' }))),
  'probe/tcp-port-name': (pod) => withProbe(pod, 'livenessProbe', (p) => void (delete p.exec, (p.tcpSocket = { port: 'Web' }))),
  'probe/grpc-port': (pod) => withProbe(pod, 'livenessProbe', (p) => void (delete p.exec, (p.grpc = { port: 70000 }))),
  'probe/negative-delay': (pod) => withProbe(pod, 'livenessProbe', (p) => void (p.initialDelaySeconds = -5)),
  'probe/negative-timeout': (pod) => withProbe(pod, 'readinessProbe', (p) => void (p.timeoutSeconds = -1)),
  'probe/negative-failure': (pod) => withProbe(pod, 'startupProbe', (p) => void (p.failureThreshold = -3)),
  'probe/liveness-success': (pod) => withProbe(pod, 'livenessProbe', (p) => void (p.successThreshold = 2)),
  'probe/startup-success': (pod) => withProbe(pod, 'startupProbe', (p) => void (p.successThreshold = 3)),
  'probe/readiness-success-ok': (pod) => withProbe(pod, 'readinessProbe', (p) => void (p.successThreshold = 3)),
  'probe/readiness-grace': (pod) => withProbe(pod, 'readinessProbe', (p) => void (p.terminationGracePeriodSeconds = 30)),
  'probe/grace-zero': (pod) => withProbe(pod, 'livenessProbe', (p) => void (p.terminationGracePeriodSeconds = 0)),
  'resources/request-above-limit': withResources({ requests: { cpu: '2' }, limits: { cpu: '1' } }),
  'resources/memory-above-limit': withResources({ requests: { memory: '1Gi' }, limits: { memory: '512Mi' } }),
  'resources/negative': withResources({ requests: { memory: '-1' } }),
  'resources/unknown-name': withResources({ limits: { gpu: '1' } }),
  'resources/name-invalid': withResources({ requests: { 'bad name!': '1' } }),
  'resources/extended-no-limit': withResources({ requests: { 'example.com/gpu': '1' } }),
  'resources/extended-unequal': withResources({ requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '2' } }),
  'resources/extended-fraction': withResources({ limits: { 'example.com/gpu': '500m' } }),
  'resources/extended-ok': withResources({ limits: { 'nvidia.com/gpu': '2' } }),
  'resources/native-prefixed': withResources({ limits: { 'kubernetes.io/widget': '2' } }),
  'resources/extended-bad': withResources({ limits: { 'requests.example.com/x': '1' } }),
  'init/name-duplicates-container': init((c) => void (c.name = 'app-0')),
  'init/name-invalid': init((c) => void (c.name = 'Init.1')),
  'init/restart-policy': init((c) => void (c.restartPolicy = 'OnFailure')),
  'init/probe-not-sidecar': init((c) => void (c.readinessProbe = { exec: { command: ['true'] } })),
  'init/lifecycle-not-sidecar': init((c) => void (c.lifecycle = { preStop: { exec: { command: ['true'] } } })),
  'init/sidecar-probe-invalid': init((c) => Object.assign(c, { restartPolicy: 'Always', livenessProbe: { tcpSocket: { port: 0 } } })),
  'init/host-port-conflict': init(
    (c) =>
      void (c.ports = [
        { containerPort: 80, hostPort: 9090 },
        { containerPort: 81, hostPort: 9090 },
      ]),
  ),
  'init/image-whitespace': init((c) => void (c.image = 'busybox\t')),
};

/** `valid` valid pods, then `perRule` pods broken by each mutation, repeatable by `seed`. */
export function podContainerCases(seed: number, valid: number, perRule: number): PodCase[] {
  const pods = fc.sample(validPod, { seed, numRuns: valid + perRule * Object.keys(MUTATIONS).length });
  const cases: PodCase[] = pods.slice(0, valid).map((manifest) => ({ rule: 'valid', manifest }));
  let next = valid;
  for (const [rule, mutate] of Object.entries(MUTATIONS))
    for (let i = 0; i < perRule; i++) {
      const manifest = structuredClone(pods[next++]!);
      mutate(manifest);
      cases.push({ rule, manifest });
    }
  return cases;
}

/** The paths ported so far: what the vectors compare of Go's verdict. */
export const isPortedPath = (field: string): boolean =>
  field === 'spec.containers' || field.startsWith('spec.containers[') || field.startsWith('spec.initContainers[');

export interface Verdict {
  field: string;
  type: string;
  message: string;
}

/** Errors as one sorted list of lines: Go ranges over resource maps in random order. */
export const errorLines = (errors: readonly Verdict[]): string[] =>
  errors.map(({ field, type, message }) => `${field} ${type} ${message}`).sort();

/** Our verdict on a Pod's containers: the defaults, then the container rules of ValidatePodCreate. */
export function ourContainerErrors(manifest: Manifest): Verdict[] {
  const spec = setDefaultsPodContainers(object(manifest.spec));
  return validatePodContainers(spec, FieldPath.of('spec'), true).map((e) => ({ field: e.path.toString(), type: e.type, message: e.body }));
}
