/**
 * The custom resources of repos/extend-resources (WebApp and BackupPolicy, platform.facetform.dev/v1;
 * their CRDs are in its crds/): metadata as for any namespaced kind (names are DNS subdomains), specs
 * valid by the CRD, and probes of the CRD's schema bounds, its CEL rules, its keyed list and of
 * members the schema does not have (pruned: the oracle reports them as a decode error).
 * The CRD sent to the oracle is attached by arbitraries.ts, from the shipped file.
 */
import fc from 'fast-check';
import { type KindGenerator, type Manifest, probe } from './case.js';
import { metadataProbes, validMetadata } from './metadata.js';
import { candidate } from './near-miss.js';
import { validString } from './strings.js';

const meta = { nameRule: 'dns1123Subdomain', namespaced: true } as const;

const webAppPort = fc.record({
  name: validString('portName'),
  port: fc.integer({ min: 1, max: 65535 }),
  targetPort: fc.option(fc.oneof(fc.integer({ min: 1, max: 65535 }), validString('portName')), { nil: undefined }),
  protocol: fc.constantFrom(undefined, 'TCP', 'UDP'),
});
const webAppSpec = fc
  .record({
    image: fc.constantFrom('ghcr.io/acme/shop:1.4.2', 'nginx:1.27', 'registry.example.com/team/api@sha256:0123'),
    scale: fc.oneof(
      fc.constant({}),
      fc.integer({ min: 1, max: 20 }).map((replicas) => ({ replicas })),
      fc
        .tuple(
          fc.integer({ min: 1, max: 10 }),
          fc.integer({ min: 0, max: 10 }),
          fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
        )
        .map(([min, extra, cpu]) => ({ autoscaling: { minReplicas: min, maxReplicas: min + extra, targetCPUUtilizationPercentage: cpu } })),
    ),
    ports: fc.option(fc.uniqueArray(webAppPort, { minLength: 1, maxLength: 3, selector: (p) => p.name }), { nil: undefined }),
    env: fc.option(fc.dictionary(fc.constantFrom('LOG_LEVEL', 'PORT', 'FEATURE_X'), fc.constantFrom('debug', '8080', 'true')), {
      nil: undefined,
    }),
    exposure: fc.constantFrom(undefined, 'Internal', 'Public'),
  })
  .map(({ scale, ...spec }) => ({ ...spec, ...scale }));

export const webApp: KindGenerator = {
  apiVersion: 'platform.facetform.dev/v1',
  kind: 'WebApp',
  namespaced: true,
  valid: fc
    .tuple(validMetadata(meta), webAppSpec)
    .map(([metadata, spec]) => ({ apiVersion: 'platform.facetform.dev/v1', kind: 'WebApp', metadata, spec })),
  probes: [
    ...metadataProbes(meta),
    probe('spec/image', fc.constantFrom('', 'x'), (m, image) => (m.spec.image = image)),
    probe('spec/image-missing', fc.constant(null), (m) => delete m.spec.image, 0.5),
    probe(
      'spec/replicas-and-autoscaling',
      fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })),
      (m, [replicas, min, max]) => {
        m.spec.replicas = replicas;
        m.spec.autoscaling = { minReplicas: min, maxReplicas: max };
      },
      2,
    ),
    probe(
      'spec/autoscaling',
      fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }), fc.constantFrom(undefined, 0, 1, 100, 101)),
      (m, [minReplicas, maxReplicas, cpu]) => {
        delete m.spec.replicas;
        m.spec.autoscaling = { minReplicas, maxReplicas, targetCPUUtilizationPercentage: cpu };
      },
      3,
    ),
    probe(
      'spec/replicas',
      fc.constantFrom(0, 1, -1, 2147483647, 2147483648),
      (m, replicas) => {
        delete m.spec.autoscaling;
        m.spec.replicas = replicas;
      },
      2,
    ),
    probe(
      'ports/port',
      fc.tuple(fc.constantFrom(0, 1, 65535, 65536), fc.oneof(candidate('portName'), fc.constant('a'.repeat(16)))),
      (m, [port, name]) => (m.spec.ports = [{ name, port }]),
      3,
    ),
    probe(
      'ports/duplicate-name',
      fc.tuple(validString('portName'), fc.boolean()),
      (m, [name, same]) =>
        (m.spec.ports = [
          { name, port: 80 },
          { name: same ? name : `${name}x`.slice(-15), port: 81, protocol: same ? 'UDP' : undefined },
        ]),
      2,
    ),
    probe(
      'ports/protocol',
      fc.constantFrom('TCP', 'UDP', 'SCTP', 'tcp', ''),
      (m, protocol) => (m.spec.ports = [{ name: 'http', port: 80, protocol }]),
    ),
    probe(
      'ports/too-many',
      fc.integer({ min: 15, max: 17 }),
      (m, n) => (m.spec.ports = Array.from({ length: n }, (_, i) => ({ name: `p${i}`, port: 8000 + i }))),
    ),
    probe('spec/exposure', fc.constantFrom('Internal', 'Public', 'public', ''), (m, exposure) => (m.spec.exposure = exposure)),
    probe(
      'decode/unknown-field',
      fc.constantFrom(['spec', 'replica'], ['spec', 'ports'], ['', 'extra'], ['spec', 'autoscaling']),
      (m, [at, field]) => {
        const target: Manifest = at === '' ? m : m.spec;
        if (field === 'ports') target.ports = [{ name: 'http', port: 80, hostPort: 8080 }];
        else if (field === 'autoscaling') target.autoscaling = { minReplicas: 1, maxReplicas: 2, targetMemory: 50 };
        else target[field] = 1;
        if (field === 'autoscaling') delete m.spec.replicas;
      },
      1,
    ),
    probe(
      'decode/wrong-type',
      fc.constantFrom(['replicas', '3'], ['env', ['A=b']], ['image', 5]),
      (m, [field, value]) => (m.spec[field as string] = value),
      0.5,
    ),
  ],
};

const SCHEDULES = ['0 3 * * *', '@daily', '*/15 * * * *', '@every 1h', '0 3 * *', '0 3 * * * *', '', 'daily', '@', ' 0 3 * * *'];
const backupSpec = fc.record({
  schedule: fc.constantFrom('0 3 * * *', '@daily', '*/15 * * * *', '30 1 * * 0'),
  suspend: fc.option(fc.boolean(), { nil: undefined }),
  retention: fc.option(
    fc.oneof(
      fc.record({ keepLast: fc.integer({ min: 1, max: 30 }) }),
      fc.record({ keepDays: fc.integer({ min: 1, max: 3650 }) }),
      fc.record({ keepLast: fc.integer({ min: 1, max: 30 }), keepDays: fc.integer({ min: 1, max: 3650 }) }),
    ),
    { nil: undefined },
  ),
  targets: fc.array(
    fc.record({ kind: fc.constantFrom('Deployment', 'StatefulSet', 'PersistentVolumeClaim'), name: validString('dns1123Subdomain') }),
    { minLength: 1, maxLength: 3 },
  ),
  storage: fc.record({
    bucket: fc.constantFrom('acme-backups', 'abc', 'b'.repeat(63)),
    region: fc.constantFrom(undefined, 'eu-west-1'),
    prefix: fc.constantFrom(undefined, 'shop/', ''),
  }),
});

export const backupPolicy: KindGenerator = {
  apiVersion: 'platform.facetform.dev/v1',
  kind: 'BackupPolicy',
  namespaced: true,
  valid: fc
    .tuple(validMetadata(meta), backupSpec)
    .map(([metadata, spec]) => ({ apiVersion: 'platform.facetform.dev/v1', kind: 'BackupPolicy', metadata, spec })),
  probes: [
    ...metadataProbes(meta),
    probe('spec/schedule', fc.constantFrom(...SCHEDULES), (m, schedule) => (m.spec.schedule = schedule), 3),
    probe(
      'spec/retention',
      fc.constantFrom({}, { keepLast: 0 }, { keepDays: 3650 }, { keepDays: 3651 }, { keepLast: 1 }, { keepDays: 0, keepLast: 1 }),
      (m, retention) => (m.spec.retention = retention),
      3,
    ),
    probe(
      'spec/targets',
      fc.constantFrom(
        [],
        [{ kind: 'Deployment', name: '' }],
        [{ kind: 'DaemonSet', name: 'x' }],
        [{ kind: 'Deployment' }],
        [{ kind: 'StatefulSet', name: 'Db_0' }],
      ),
      (m, targets) => (m.spec.targets = targets),
      3,
    ),
    probe(
      'spec/bucket',
      fc.constantFrom('ab', 'abc', 'b'.repeat(63), 'b'.repeat(64), ''),
      (m, bucket) => (m.spec.storage.bucket = bucket),
      2,
    ),
    probe(
      'spec/required',
      fc.constantFrom('schedule', 'targets', 'storage', 'spec'),
      (m, field) => (field === 'spec' ? delete m.spec : delete m.spec[field]),
      2,
    ),
    probe(
      'spec/status',
      fc.constantFrom('2026-11-26T10:00:00Z', 'yesterday', '2026-11-26'),
      (m, lastBackupTime) => (m.status = { lastBackupTime }),
    ),
    probe('decode/unknown-field', fc.constantFrom('retain', 'bucket', 'selector'), (m, field) => (m.spec[field] = 'x'), 1),
    probe(
      'decode/wrong-type',
      fc.constantFrom(['suspend', 'true'], ['targets', 'web'], ['schedule', 3]),
      (m, [field, value]) => (m.spec[field as string] = value),
      0.5,
    ),
  ],
};
