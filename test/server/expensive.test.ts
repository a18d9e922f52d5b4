/**
 * Requests built to be expensive rather than large: distinct long patterns in a caller's CRD, CEL
 * rules over long lists and strings, quantities with huge exponents read by a batch of claims,
 * thousands of named ports, null map values. fast-check makes them; the server runs as its own
 * process, as the Deployment runs it (its heap, limits and timeouts). Each answer is a manifest or a
 * 4xx within a bound, `/healthz` answers all the while, and the process's peak memory stays under the
 * Deployment's limit. Broken, these took tens of seconds or killed the process (docs/reliability.md,
 * "What bounds a request's work"). `npm run fuzz` sends FUZZ_RUNS / 20 of them; `npm test` fewer.
 * The bounds are far above what a healthy server takes on a loaded machine, and far below what the
 * classes cost when unbounded.
 */
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { serverContainer } from '../helpers/deployment.js';
import { killServers, memoryOf, spawnServer } from '../helpers/process.js';
import { collectionOfKind, facetsWriting, ROOT, type ShippedCollection } from '../helpers/repos.js';
import { BASE, execPath } from '../helpers/server.js';

const RUNS = Math.max(12, Math.round(Number(process.env.FUZZ_RUNS ?? 400) / 20));
/** An answer slower than this is a request whose work is not bounded. */
const ANSWER_BOUND_MS = 20_000;
/**
 * /healthz slower than this, while such requests run, is an event loop held past a third of the
 * liveness probe's 30 s. The costliest request here (six distinct 60,000-character patterns) takes
 * about 0.6 s of CPU; the bound leaves room for a loaded machine.
 */
const HEALTH_BOUND_MS = 10_000;
const MiB = 1024 * 1024;
const KEY = 'expensive-requests-key';

const crd = collectionOfKind('CustomResourceDefinition');
const claim = collectionOfKind('PersistentVolumeClaim');
const service = collectionOfKind('Service');
const configMap = collectionOfKind('ConfigMap');

interface Expensive {
  pattern: string;
  path: string;
  body: unknown;
}

/** The seed of `found` with `planted` applied to its input object, and `facets` chosen. */
function seedWith(found: ShippedCollection, facets: string[], planted: (input: Record<string, any>) => void) {
  const request = structuredClone(found.seed);
  const id = request.globalvars?.[found.variable] ?? Object.keys(request.values)[0]!;
  planted(request.values[id]);
  return { ...request, facets: [...new Set([...(request.facets ?? []), ...facets])] };
}

/** A CRD whose one version's schema has `properties` under spec. */
function crdWith(properties: Record<string, unknown>, rules: { rule: string }[] = []) {
  return seedWith(crd, [], (input) => {
    const version = input.spec.versions[0];
    version.schema = {
      openAPIV3Schema: {
        type: 'object',
        properties: { spec: { type: 'object', properties, ...(rules.length > 0 ? { 'x-kubernetes-validations': rules } : {}) } },
      },
    };
  });
}

/** A distinct RE2 pattern of about `length` characters: classes and literals, as a careless author writes them. */
const longPattern = (length: number, salt: number) => `^${salt}` + '[a-z0-9]x(ab|cd)'.repeat(Math.ceil(length / 16)) + '$';

const patterns = fc
  .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1_000, max: 60_000 }), fc.nat())
  .map(([count, length, salt]) => ({
    pattern: `CRD with ${count} distinct patterns of ${length} characters`,
    path: execPath(crd.repository, crd.collection),
    body: crdWith(
      Object.fromEntries(
        Array.from({ length: count }, (_, index) => [`p${index}`, { type: 'string', pattern: longPattern(length, salt + index) }]),
      ),
    ),
  }));

/** Short patterns of big programs: counted repeats (`[a-z]{1000}`, 11 characters, 1,000 instructions) and wide classes (`\\pL`). */
const bigPrograms = fc
  .tuple(fc.constantFrom('[a-z]{1000}', '\\pL', '(?:\\pL|\\pN){100}'), fc.integer({ min: 10, max: 5_000 }))
  .map(([unit, count]) => ({
    pattern: `CRD with ${unit} ${count} times`,
    path: execPath(crd.repository, crd.collection),
    body: crdWith({ p: { type: 'string', pattern: unit.repeat(Math.min(count, Math.floor(60_000 / unit.length))) } }),
  }));

const CEL_RULES = [
  "self.items.all(x, x.matches('^[a-z]+(-[a-z0-9]+)*$'))",
  "self.name.split('').map(c, c).all(c, c != '/')",
  'self.items.map(x, x + x).exists(x, x.size() > 3)',
  "self.items.all(x, quantity(x).isGreaterThan(quantity('1')))",
];
const celRules = fc
  .tuple(fc.subarray(CEL_RULES, { minLength: 1 }), fc.constantFrom(10, 100, 1_000, 10_000), fc.constantFrom(63, 1_000, 8_000))
  .map(([rules, maxItems, maxLength]) => ({
    pattern: `CRD with ${rules.length} CEL rules over ${maxItems} strings of ${maxLength} characters`,
    path: execPath(crd.repository, crd.collection),
    body: crdWith(
      {
        items: { type: 'array', maxItems, items: { type: 'string', maxLength } },
        name: { type: 'string', maxLength },
      },
      rules.map((rule) => ({ rule })),
    ),
  }));

/** A quantity built to be expensive: many digits, an exponent far past any real one. */
const hugeQuantity = fc
  .tuple(
    fc.constantFrom('', '-', '+'),
    fc.stringMatching(/^[1-9][0-9]{0,18}$/),
    fc.constantFrom('e', 'E'),
    fc.constantFrom('', '-'),
    fc.oneof(fc.integer({ min: 100, max: 999_999 }), fc.constantFrom(99_999, 100_001, 999_999)),
  )
  .map(([sign, digits, e, expSign, exponent]) => `${sign}${digits}${e}${expSign}${exponent}`);
/** The values of the probe that found the class, and ones like them. */
const probedQuantity = fc.constantFrom('-1234567890123456789e99999', '1234567890123456789e100001', '1e-100001', '-1e-999999');
const quantities = fc.tuple(fc.integer({ min: 1, max: 10 }), fc.oneof(hugeQuantity, probedQuantity)).map(([count, storage]) => {
  const seed = seedWith(claim, facetsWriting(claim, 'spec.resources'), (input) => {
    input.spec ??= {};
    input.spec.resources = { requests: { storage } };
  });
  const resources = Array.from({ length: count }, () => ({
    repository: claim.repository,
    collection: claim.collection,
    facets: seed.facets,
  }));
  return {
    pattern: `batch of ${count} claims reading storage ${storage.slice(0, 12)}…`,
    path: `${BASE}/exec`,
    body: { resources, values: seed.values, globalvars: seed.globalvars },
  };
});

/** Up to ten CRDs in one batch, all reading one values entry of long patterns (each resource checks it again). */
const crdBatch = fc
  .tuple(fc.integer({ min: 2, max: 10 }), fc.integer({ min: 2_000, max: 34_000 }), fc.nat())
  .map(([count, length, salt]) => {
    const { values, globalvars, facets } = crdWith({
      p: { type: 'string', pattern: longPattern(length, salt) },
      q: { type: 'string', pattern: longPattern(length, salt + 1) },
    });
    const resources = Array.from({ length: count }, () => ({ repository: crd.repository, collection: crd.collection, facets }));
    return {
      pattern: `batch of ${count} CRDs reading patterns of ${length} characters`,
      path: `${BASE}/exec`,
      body: { resources, values, globalvars },
    };
  });

const namedPorts = fc.tuple(fc.integer({ min: 100, max: 1_000 }), fc.boolean()).map(([count, repeated]) => ({
  pattern: `Service with ${count} named ports${repeated ? ', names repeated' : ''}`,
  path: execPath(service.repository, service.collection),
  body: seedWith(service, facetsWriting(service, 'spec.ports'), (input) => {
    input.spec.ports = Array.from({ length: count }, (_, index) => ({
      name: `p${repeated ? index % 7 : index}`,
      port: 1 + (index % 65535),
    }));
  }),
}));

const nullMaps = fc.integer({ min: 1, max: 500 }).map((count) => ({
  pattern: `ConfigMap with ${count} null labels and data`,
  path: execPath(configMap.repository, configMap.collection),
  body: seedWith(configMap, facetsWriting(configMap, 'data'), (input) => {
    input.metadata.labels = Object.fromEntries(Array.from({ length: count }, (_, index) => [`l${index}`, null]));
    input.data = Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, null]));
  }),
}));

const expensive: fc.Arbitrary<Expensive> = fc.oneof(patterns, bigPrograms, crdBatch, celRules, quantities, namedPorts, nullMaps);

afterAll(() => killServers());

/** The first problem of a refusal, cut short, for the log line. */
function firstError(text: string): string {
  const problem = JSON.parse(text);
  const first = problem.errors?.[0];
  return (first === undefined ? problem.detail : `${first.pointer}: ${first.detail}`).slice(0, 200);
}

describe('requests built to be expensive, against the server process with the Deployment’s heap', () => {
  const container = serverContainer();
  const deployed = Object.fromEntries(
    Object.entries(container.env).filter(([name]) => /^(NODE_OPTIONS|WORKERS|MAX_\w+|\w+_TIMEOUT_MS)$/.test(name)),
  );

  it(`answers ${RUNS} of them within ${ANSWER_BOUND_MS / 1000} s each, /healthz meanwhile within ${HEALTH_BOUND_MS / 1000} s, under the memory limit`, async () => {
    const server = await spawnServer({
      ...deployed,
      API_KEYS: KEY,
      BUNDLES_DIR: path.join(ROOT, 'dist'),
      RATE_LIMIT: '1000000/min',
      LOG_LEVEL: 'warn',
    });
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
    const requests = fc.sample(expensive, { numRuns: RUNS, seed });
    const answers: string[] = [];
    let slowestHealth = 0;
    let sending = true;
    // /healthz, asked one at a time while the requests run: how long the event loop was held at most.
    const health = (async () => {
      while (sending) {
        const started = performance.now();
        const ok = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(60_000) }).then(
          (response) => response.ok,
          () => false,
        );
        slowestHealth = Math.max(slowestHealth, ok ? performance.now() - started : Infinity);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    try {
      for (const request of requests) {
        const started = performance.now();
        const response = await fetch(server.url + request.path, {
          method: 'POST',
          headers: { 'X-APIKEY': KEY, 'Content-Type': 'application/json' },
          body: JSON.stringify(request.body),
          signal: AbortSignal.timeout(120_000),
        });
        const text = await response.text();
        const took = performance.now() - started;
        answers.push(`${request.pattern}: ${response.status} in ${Math.round(took)} ms${response.ok ? '' : ` (${firstError(text)})`}`);
        expect(response.status, `${request.pattern} (seed ${seed}): ${text.slice(0, 300)}`).toBeLessThan(500);
        expect(took, `${request.pattern} (seed ${seed})`).toBeLessThan(ANSWER_BOUND_MS);
      }
    } finally {
      sending = false;
      await health;
    }
    const { peak } = memoryOf(server.child.pid!);
    process.stdout.write(
      `expensive requests (seed ${seed}):\n  ${answers.join('\n  ')}\n` +
        `slowest /healthz meanwhile: ${Math.round(slowestHealth)} ms; peak RSS ${(peak / MiB).toFixed(0)} MiB of ${(container.memoryLimitBytes / MiB).toFixed(0)} MiB\n`,
    );
    expect(slowestHealth).toBeLessThan(HEALTH_BOUND_MS);
    expect(peak).toBeLessThan(container.memoryLimitBytes);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 900_000);
});
