/**
 * Gateway API's kinds (test/fixtures/realworld/gateway-api) for the oracle: its own examples, valid
 * and invalid, and mutations of the valid ones that move one member (the values Gateway API's
 * examples hold at the same place, near misses of strings and numbers, a member dropped, a list
 * element doubled), so that the schema, the defaults, the CEL rules and the keyed lists of ten real
 * CRDs are all asked, each side of them, without a generator written per kind.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { judge, type OracleVerdict } from '../helpers/oracle.js';
import { GATEWAY_API, gatewayExamples, gatewayKinds, readGatewayCrds } from '../helpers/gateway-api.js';
import { SHIPPED_REPOS } from '../helpers/repos.js';
import { type Case, caseArbitrary, type KindGenerator, type Manifest, type Probe } from './case.js';
import type { KindCases } from './arbitraries.js';
import type { ShippedKind } from './shipped.js';
import { stableVerdict, VECTORS_DIR } from './vectors.js';

type Path = Array<string | number>;

/** Every member below `value` (not the root), with its path; `shape` is the path with list indexes as `*`. */
function members(value: unknown, at: Path = [], found: Array<{ path: Path; shape: string; value: unknown }> = []) {
  const entries: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : value !== null && typeof value === 'object'
      ? Object.entries(value)
      : [];
  for (const [key, member] of entries) {
    const next = [...at, key];
    found.push({ path: next, shape: next.map((k) => (typeof k === 'number' ? '*' : k)).join('.'), value: member });
    members(member, next, found);
  }
  return found;
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function setAt(manifest: Manifest, at: Path, value: unknown): void {
  let holder: Manifest = manifest;
  for (const key of at.slice(0, -1)) holder = holder[key];
  const last = at[at.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(holder)) holder.splice(Number(last), 1);
    else delete holder[last];
  } else holder[last] = value;
}

/** Strings near the rules Gateway API's schemas have: names, hostnames, paths, IPs, lengths, enums. */
const NEAR_STRINGS = [
  '',
  'a',
  'UPPER',
  'under_score',
  '-leading',
  'trailing-',
  'example.com',
  '*.example.com',
  '*.*.example.com',
  'foo.bar.example.com',
  '1.2.3.4',
  '01.2.3.4',
  '256.1.1.1',
  '::1',
  '::ffff:1.2.3.4',
  'fe80::1%eth0',
  '/',
  '/path//double',
  '/path/../up',
  'path-without-slash',
  'http://example.com/x',
  'https',
  'Exact',
  'PathPrefix',
  'RegularExpression',
  'IPAddress',
  'Hostname',
  'NamedAddress',
  'example.com/custom',
  'x'.repeat(63),
  'x'.repeat(64),
  'x'.repeat(253),
  'x'.repeat(254),
];
const NEAR_NUMBERS = [-1, 0, 1, 80, 65535, 65536, 1000000, 2147483648];

/** The mutations of one kind: each picks its member from the manifest it is given, by two numbers. */
function probesFor(sameShape: Map<string, unknown[]>): Probe[] {
  const pick = <T>(items: readonly T[], n: number) => items[n % items.length]!;
  const mutate = (
    rule: string,
    change: (m: Manifest, member: { path: Path; shape: string; value: unknown }, n: number) => void,
    weight = 1,
  ) => ({
    rule,
    weight,
    mutation: fc.tuple(fc.nat(), fc.nat()).map(([which, n]) => (m: Manifest) => {
      const found = members(m.spec);
      if (found.length > 0) change(m, pick(found, which), n);
    }),
  });
  const specPath = (member: { path: Path }) => ['spec', ...member.path];
  return [
    mutate(
      'spec/same-place',
      (m, member, n) => {
        const seen = sameShape.get(member.shape) ?? [];
        if (seen.length > 0) setAt(m, specPath(member), clone(pick(seen, n)));
      },
      3,
    ),
    mutate(
      'spec/near-miss',
      (m, member, n) => {
        if (typeof member.value === 'string') setAt(m, specPath(member), pick(NEAR_STRINGS, n));
        else if (typeof member.value === 'number') setAt(m, specPath(member), pick(NEAR_NUMBERS, n));
      },
      3,
    ),
    mutate('spec/dropped', (m, member) => setAt(m, specPath(member), undefined)),
    mutate('spec/doubled', (m, member) => {
      if (Array.isArray(member.value) && member.value.length > 0) (member.value as unknown[]).push(clone(member.value[0]));
    }),
    mutate('decode/type', (m, member, n) => setAt(m, specPath(member), pick([7, 'seven', true, [], {}, null], n)), 0.3),
  ];
}

/** Gateway API's kinds as the oracle's runs take them: the CRD file named relative to repos/, as a shipped CRD is. */
export function gatewayKindCases(): KindCases[] {
  const crds = readGatewayCrds();
  const valid = gatewayExamples('examples/standard');
  const invalid = gatewayExamples('hack/invalid-examples/standard');
  return gatewayKinds().map((kind) => {
    const crd = crds.find((c) => c.manifest.spec.names.kind === kind.kind)!;
    const apiVersion = `${kind.group}/${kind.versions[0]}`;
    const shipped: ShippedKind = {
      apiVersion,
      kind: kind.kind,
      collections: [`gateway-api/${kind.collection}`],
      crd: { manifest: crd.manifest, file: path.relative(SHIPPED_REPOS, path.join(GATEWAY_API, crd.file)) },
    };
    const ofKind = (examples: typeof valid) =>
      examples.filter((e) => e.manifest.kind === kind.kind && e.manifest.apiVersion === apiVersion);
    const sameShape = new Map<string, unknown[]>();
    for (const example of [...ofKind(valid), ...ofKind(invalid)])
      for (const member of members(example.manifest.spec))
        sameShape.set(member.shape, [...(sameShape.get(member.shape) ?? []), member.value]);
    const generator: KindGenerator = {
      apiVersion,
      kind: kind.kind,
      namespaced: crd.manifest.spec.scope !== 'Cluster',
      valid: fc.constantFrom(...ofKind(valid).map((e) => clone(e.manifest) as Manifest)),
      probes: probesFor(sameShape),
      crd: crd.manifest,
    };
    // Gateway API's invalid examples are asked as they are, beside the mutations.
    const invalidCases = ofKind(invalid).map((e): Case => ({ manifest: clone(e.manifest) as Manifest, rule: `spec/invalid-example` }));
    const cases =
      invalidCases.length === 0
        ? caseArbitrary(generator)
        : fc.oneof({ arbitrary: caseArbitrary(generator), weight: 9 }, { arbitrary: fc.constantFrom(...invalidCases), weight: 1 });
    return { kind: shipped, generator, crd: crd.manifest, cases };
  });
}

/** Gateway API's examples as the oracle judged them: test/vectors/gateway-api-examples.jsonl, one line per document. */
export const EXAMPLE_VERDICTS = path.join(VECTORS_DIR, 'gateway-api-examples.jsonl');

export interface ExampleVerdict {
  file: string;
  index: number;
  oracle: OracleVerdict;
}

/** Every example, valid and invalid, judged by the oracle with its kind's CRD. */
export async function judgeGatewayExamples(bin: string): Promise<ExampleVerdict[]> {
  const crds = readGatewayCrds();
  const examples = [...gatewayExamples('examples/standard'), ...gatewayExamples('hack/invalid-examples/standard')];
  const crdOf = (kind: string) => crds.find((c) => c.manifest.spec.names.kind === kind)!.manifest;
  const verdicts = await judge(
    examples.map((e) => ({ manifest: e.manifest, crd: crdOf(e.manifest.kind) })),
    bin,
  );
  return examples.map((e, i) => ({ file: e.file, index: e.index, oracle: stableVerdict(verdicts[i]!) }));
}

export const writeExampleVerdicts = (verdicts: readonly ExampleVerdict[]) =>
  writeFileSync(EXAMPLE_VERDICTS, verdicts.map((v) => `${JSON.stringify(v)}\n`).join(''));

export const readExampleVerdicts = (): ExampleVerdict[] =>
  existsSync(EXAMPLE_VERDICTS)
    ? readFileSync(EXAMPLE_VERDICTS, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as ExampleVerdict)
    : [];
