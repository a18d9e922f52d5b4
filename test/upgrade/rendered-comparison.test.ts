/**
 * The rendered comparison on its own: which requests are the evidence, and how each difference of
 * two releases' manifests is classified. Bundles are compiled from the small demo repository.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/bundle/bundle.js';
import { compileRepositories } from '../../src/build/compile.js';
import { compareRendered } from '../../src/upgrade/rendered-comparison.js';
import { DEMO_REPOS, repoCopy } from '../helpers/repos.js';

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
  twoFacets = await bundleOf({ [`${SECTIONS}/immutable.json`]: section({ facets: ['addon:immutable'], immutable: '{{ __SET_ID__.immutable }}' }) });
});

describe('the requests a release is judged by', () => {
  it('are every example, then from each example\'s values: every facet alone, all facets, each optional input absent or added', () => {
    const [settings] = compareRendered(twoFacets, twoFacets).collections;
    const names = settings!.requests.map((request) => request.request.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'example basic',
        "example basic's values, facets [addon:data]",
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

  it('leave out requests the previous release refuses: no caller can have sent them', () => {
    const [settings] = compareRendered(twoFacets, twoFacets).collections;
    // metadata.name is required, so the request without it is refused and not evidence.
    expect(settings!.requests.map((request) => request.request.name)).not.toContain("example basic's values without metadata.name, every facet");
    const bodies = settings!.requests.map((request) => request.request.body as { values: Record<string, { metadata?: { name?: string } }> });
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

  it('is an identity change (breaking) when it renames the object or moves it to another namespace', async () => {
    const after = await bundleOf({
      [`${SECTIONS}/core.json`]: section({ facets: ['master'], apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'v2-{{ __SET_ID__.metadata.name }}', namespace: 'apps' } }),
    });
    const example = compareRendered(released, after).collections[0]!.requests.find((request) => request.request.name === 'example basic')!;
    const identity = example.differences.filter((difference) => difference.class === 'identity');
    expect(identity.map((difference) => difference.pointer).sort()).toEqual(['/metadata/name', '/metadata/namespace']);
    expect(identity.every((difference) => difference.level === 'breaking')).toBe(true);
    expect(identity.find((difference) => difference.pointer === '/metadata/name')!.reason).toBe(
      'renames the ConfigMap from "app-settings" to "v2-app-settings": kubectl apply creates a new one beside the caller\'s, which keeps running',
    );
  });

  it('is immutable (breaking) where the kind forbids the update: an immutable ConfigMap\'s data', async () => {
    const frozen = section({ facets: ['master'], apiVersion: 'v1', kind: 'ConfigMap', metadata: '{{ __SET_ID__.metadata }}', immutable: true });
    const before = await bundleOf({ [`${SECTIONS}/core.json`]: frozen });
    const after = await bundleOf({
      [`${SECTIONS}/core.json`]: frozen,
      [`${SECTIONS}/data.json`]: section({ facets: ['addon:data'], binaryData: '{{ __SET_ID__.data }}' }),
    });
    const example = compareRendered(before, after).collections[0]!.requests.find((request) => request.request.name === 'example basic')!;
    expect(example.differences.find((difference) => difference.pointer === '/data')).toMatchObject({ class: 'immutable', level: 'breaking' });
  });
});
