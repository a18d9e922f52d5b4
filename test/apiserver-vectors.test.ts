/**
 * Every manifest we answer must be one the API server accepts, and one it refuses must be refused
 * where it says: the committed vectors (test/vectors/<Kind>.jsonl, judged by Kubernetes 1.33's own
 * validation in test/oracle; written by `npm run oracle:vectors`, added to by `npm run test:oracle`)
 * against ManifestCheck, without Go. See test/apiserver/compare.ts for what must agree.
 */
import { describe, expect, it } from 'vitest';
import { kindsWithoutGenerator } from './apiserver/arbitraries.js';
import { compare, type Judged } from './apiserver/compare.js';
import { formatMessageSummary, formatReport } from './apiserver/report.js';
import { gatewayKindCases } from './apiserver/gateway-api.js';
import { shippedKinds } from './apiserver/shipped.js';
import { checkOf, readVectors, resolveCrd } from './apiserver/vectors.js';
import { goPathToPointer } from './helpers/oracle.js';

/** Flip to fail on a detail worded otherwise than the oracle's message (today they are counted and printed). */
const FAIL_ON_MESSAGES = false;

const shipped = shippedKinds();
/** The shipped kinds, and Gateway API's (test/fixtures/realworld): custom resources of real CRDs. */
const kinds = [...shipped, ...gatewayKindCases().map((k) => k.kind)];

describe('the oracle vectors', () => {
  it('cover every kind the shipped repositories render', () => {
    const missing = kindsWithoutGenerator(shipped).map((k) => `${k.apiVersion} ${k.kind} (${k.collections.join(', ')})`);
    expect(missing, 'shipped kinds without a generator in test/apiserver/arbitraries.ts').toEqual([]);
    const withoutVectors = kinds.filter((k) => readVectors(k.kind).length === 0).map((k) => k.kind);
    expect(withoutVectors, 'shipped kinds without test/vectors/<Kind>.jsonl: run npm run oracle:vectors (needs Go)').toEqual([]);
  });

  const judged: Judged[] = [];
  const changed: string[] = [];

  it('are judged by our check as by the oracle', () => {
    for (const kind of kinds) {
      const vectors = readVectors(kind.kind);
      if (vectors.length === 0) continue;
      for (const { vector } of vectors) if (vector.crd !== undefined) resolveCrd(vector.crd);
      const check = checkOf(kind);
      for (const { line, vector } of vectors) {
        // The API server judges a defaulted copy; the answer is sent as rendered, so the check never writes into it.
        const before = JSON.stringify(vector.manifest);
        const comparison = compare(check, vector.manifest, vector.oracle);
        if (JSON.stringify(vector.manifest) !== before) changed.push(`test/vectors/${kind.kind}.jsonl:${line}`);
        judged.push({
          kind: kind.kind,
          where: `test/vectors/${kind.kind}.jsonl:${line}`,
          rule: vector.rule,
          manifest: vector.manifest,
          oracle: vector.oracle,
          comparison,
        });
      }
    }
    expect(changed, 'manifests the check wrote into').toEqual([]);
    const disagreements = judged.filter((j) => !j.comparison.agree);
    if (disagreements.length > 0) throw new Error(formatReport(judged));
  }, 300_000);

  it('say what the oracle says', () => {
    const summary = formatMessageSummary(judged);
    console.log(summary);
    if (FAIL_ON_MESSAGES) expect(judged.filter((j) => j.comparison.messageDiffs.length > 0).length, summary).toBe(0);
  });
});

describe("Go's field paths as JSON Pointers", () => {
  it.each([
    ['', ''],
    ['metadata.name', '/metadata/name'],
    ['spec.ports[0].name', '/spec/ports/0/name'],
    ['spec.ports[12]', '/spec/ports/12'],
    ['metadata.labels[app.kubernetes.io/name]', '/metadata/labels/app.kubernetes.io~1name'],
    ['metadata.annotations[a~b/c]', '/metadata/annotations/a~0b~1c'],
    ['data[.env]', '/data/.env'],
    ['data[..]', '/data/..'],
    ['data[a]b]', '/data/a]b'],
    ['data[a[b]', '/data/a[b'],
    ['data[a].b', '/data/a/b'],
    ['data[a][b]', '/data/a/b'],
    ['data[x]y].z', '/data/x]y/z'],
    ['data[]', '/data/'],
    ['data[a b]', '/data/a b'],
    ['spec.resources[storage]', '/spec/resources/storage'],
    [
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule',
      '/spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations/0/rule',
    ],
    ['[0].name', '/0/name'],
  ])('%s', (goPath, pointer) => {
    expect(goPathToPointer(goPath)).toBe(pointer);
  });

  it('refuses an unclosed bracket', () => {
    expect(() => goPathToPointer('data[a')).toThrow(/unclosed/);
  });
});
