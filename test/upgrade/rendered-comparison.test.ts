/**
 * The rendered comparison on its own: which requests are the evidence, and how each difference of
 * two releases' manifests is classified. Bundles are compiled from the small demo repository.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/bundle/bundle.js';
import { compileRepositories } from '../../src/compiler/compile.js';
import { compareRendered } from '../../src/upgrade/rendered-comparison.js';
import { upgradeRequests } from '../../src/upgrade/upgrade-requests.js';
import { committedReleases, DEMO_REPOS, repoCopy, ROOT } from '../helpers/repos.js';

const SECTIONS = 'demo-resources/settings/sections';
const section = (body: Record<string, unknown>) => JSON.stringify({ $description: 'A section.', ...body });

async function bundleOf(files: Record<string, string> = {}): Promise<Bundle> {
  const { report, bundles } = await compileRepositories(repoCopy(DEMO_REPOS, files));
  if (report.errorCount > 0) throw new Error(report.format());
  return bundles[0]!;
}

let released: Bundle;
/** The demo with a second facet and an optional input its example leaves out. */
let twoFacets: Bundle;
beforeAll(async () => {
  released = await bundleOf();
  twoFacets = await bundleOf({
    [`${SECTIONS}/immutable.json`]: section({ facets: ['addon:immutable'], immutable: '{{ __SET_ID__.immutable }}' }),
  });
});

describe('the requests a release is judged by', () => {
  it("are every example, then from each example's values: every facet alone, all facets, each optional input absent or added", () => {
    const [settings] = compareRendered(twoFacets, twoFacets).collections;
    const names = settings!.requests.map((request) => request.request.name);
    expect(names).toEqual(
      expect.arrayContaining([
        // The example selects addon:data itself, so "facets [addon:data]" is the same request, judged once.
        'example basic',
        "example basic's values, facets [addon:immutable]",
        "example basic's values, every facet",
        "example basic's values without data, every facet",
        // An input the example leaves out, with a value its schema accepts.
        "example basic's values with immutable = true, every facet",
      ]),
    );
    // The same release renders the same.
    expect(settings!.requests.every((request) => request.differences.length === 0 && request.refused.length === 0)).toBe(true);
  });

  it('add the inputs only the new release reads, which an old caller could already send (a key of a map, say)', () => {
    const [collection] = twoFacets.collections;
    const successor = {
      ...collection!,
      schema: { ...collection!.schema, properties: { ...(collection!.schema.properties as object), note: { type: 'string' } } },
    };
    const names = upgradeRequests(collection!, successor, () => true).map((request) => request.name);
    expect(names).toContain('example basic\'s values with note = "example", every facet');
  });

  it('leave out requests the previous release refuses: no caller can have sent them', () => {
    const [settings] = compareRendered(twoFacets, twoFacets).collections;
    // metadata.name is required, so the request without it is refused and not evidence.
    expect(settings!.requests.map((request) => request.request.name)).not.toContain(
      "example basic's values without metadata.name, every facet",
    );
    const bodies = settings!.requests.map(
      (request) => request.request.body as { values: Record<string, { metadata?: { name?: string } }> },
    );
    expect(bodies.every((body) => Object.values(body.values).every((input) => typeof input.metadata?.name === 'string'))).toBe(true);
  });
});

describe('each difference', () => {
  it('is dropped (breaking) when the caller set the member, and accepted (minor) when the release adds one', async () => {
    const after = await bundleOf({ [`${SECTIONS}/data.json`]: section({ facets: ['addon:data'], binaryData: '{{ __SET_ID__.data }}' }) });
    const example = compareRendered(released, after).collections[0]!.requests.find((request) => request.request.name === 'example basic')!;
    expect(example.differences.map(({ pointer, class: kind, level }) => ({ pointer, kind, level }))).toEqual([
      { pointer: '/data', kind: 'dropped', level: 'breaking' },
      { pointer: '/binaryData', kind: 'accepted', level: 'minor' },
    ]);
    expect(example.differences[0]!.reason).toContain('no longer renders what the caller set at /values/app/data');
  });

  it('is dropped (breaking) when an object holding what the caller set goes, even where its values land elsewhere', async () => {
    const labelled = (where: string) =>
      section({
        facets: ['master'],
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: '{{ __SET_ID__.metadata.name }}', [where]: { team: '{{ __SET_ID__.team }}' } },
      });
    const files = {
      [`demo-resources/settings/examples/team.json`]: JSON.stringify({ values: { app: { metadata: { name: 'app' }, team: 'payments' } } }),
    };
    const before = await bundleOf({ ...files, [`${SECTIONS}/core.json`]: labelled('labels') });
    const after = await bundleOf({ ...files, [`${SECTIONS}/core.json`]: labelled('annotations') });
    const example = compareRendered(before, after).collections[0]!.requests.find((request) => request.request.name === 'example team')!;
    expect(example.differences.map(({ pointer, class: kind }) => ({ pointer, kind }))).toEqual([
      { pointer: '/metadata/labels', kind: 'dropped' },
      { pointer: '/metadata/annotations', kind: 'accepted' },
    ]);
    expect(example.differences[0]!.reason).toContain('what the caller set at /values/app/team');
  });

  it('is an identity change (breaking) when it renames the object or moves it to another namespace', async () => {
    const after = await bundleOf({
      [`${SECTIONS}/core.json`]: section({
        facets: ['master'],
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'v2-{{ __SET_ID__.metadata.name }}', namespace: 'apps' },
      }),
    });
    const example = compareRendered(released, after).collections[0]!.requests.find((request) => request.request.name === 'example basic')!;
    const identity = example.differences.filter((difference) => difference.class === 'identity');
    expect(identity.map((difference) => difference.pointer).sort()).toEqual(['/metadata/name', '/metadata/namespace']);
    expect(identity.every((difference) => difference.level === 'breaking')).toBe(true);
    expect(identity.find((difference) => difference.pointer === '/metadata/name')!.reason).toBe(
      'renames the ConfigMap from "app-settings" to "v2-app-settings": kubectl apply creates a new one beside the caller\'s, which keeps running',
    );
  });

  it("is immutable (breaking) where the kind forbids the update: an immutable ConfigMap's data", async () => {
    const frozen = section({
      facets: ['master'],
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: '{{ __SET_ID__.metadata }}',
      immutable: true,
    });
    const before = await bundleOf({ [`${SECTIONS}/core.json`]: frozen });
    const after = await bundleOf({
      [`${SECTIONS}/core.json`]: frozen,
      [`${SECTIONS}/data.json`]: section({ facets: ['addon:data'], binaryData: '{{ __SET_ID__.data }}' }),
    });
    const example = compareRendered(before, after).collections[0]!.requests.find((request) => request.request.name === 'example basic')!;
    expect(example.differences.find((difference) => difference.pointer === '/data')).toMatchObject({
      class: 'immutable',
      level: 'breaking',
    });
  });

  it("never shows a Secret's values, only its keys", () => {
    const file = path.join(
      ROOT,
      'dist',
      'config-and-storage-resources',
      'v1',
      committedReleases('config-and-storage-resources').at(-1)!,
      'bundle.json',
    );
    const before = JSON.parse(readFileSync(file, 'utf8')) as Bundle;
    // The new release renders stringData for every request that selects addon:type too.
    const after = structuredClone(before);
    const secret = after.collections.find((collection) => collection.kind === 'Secret')!;
    secret.sections.find((candidate) => candidate.name === 'stringdata')!.facets.push('addon:type');
    const comparison = compareRendered(before, after).collections.find((collection) => collection.kind === 'Secret')!;
    const differences = comparison.requests.flatMap((request) => request.differences);
    expect(differences.length).toBeGreaterThan(0);
    const shown = JSON.stringify(differences);
    const values = secret.examples
      .flatMap((example) => Object.values(example.request.values as Record<string, { stringData?: Record<string, string> }>))
      .flatMap((input) => Object.entries(input.stringData ?? {}));
    expect(values.length).toBeGreaterThan(0);
    for (const [key, value] of values) {
      expect(shown).toContain(JSON.stringify(key));
      expect(shown).not.toContain(JSON.stringify(value));
    }
  });
});
