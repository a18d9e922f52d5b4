/**
 * Releases (CONTRACT §9): immutability and the compatibility check, one rule per test, each a pair:
 * the demo repository released as 1.0.0, then a change built into the same dist/.
 */
import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildInto, runCli } from './helpers/build.js';
import { DEMO_REPOS, removeFrom, repoCopy, tempDir } from './helpers/repos.js';

const REPO = 'demo-resources';
const SECTIONS = `${REPO}/settings/sections`;
let released: string;
beforeAll(async () => {
  released = await buildInto(DEMO_REPOS);
});

const declaration = (release: string, apiVersion = 'v1') =>
  JSON.stringify(
    { name: REPO, vendor: 'facetform', apiVersion, release, description: 'A small repository for tests: one ConfigMap collection.' },
    null,
    2,
  ) + '\n';
const section = (facets: string[], member: string, value: unknown) =>
  JSON.stringify({ $description: `Sets ${member}.`, facets, [member]: value }, null, 2) + '\n';

/** Builds the demo repository with `files` changed and `remove` deleted, into a copy of the released dist/. */
async function release(
  files: Record<string, string>,
  remove: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string; dist: string }> {
  const dist = tempDir();
  cpSync(released, dist, { recursive: true });
  const repos = repoCopy(DEMO_REPOS, files);
  for (const file of remove) removeFrom(repos, file);
  const run = await runCli(['build', '--repos', repos, '--out', dist]);
  return { ...run, dist };
}

const EXAMPLES = `${REPO}/settings/examples`;
const example = (facets: string[], values: Record<string, unknown>) =>
  JSON.stringify({ facets, values: { app: { metadata: { name: 'a' }, ...values } } }) + '\n';
const index = (dist: string) =>
  JSON.parse(readFileSync(path.join(dist, 'index.json'), 'utf8')) as {
    bundles: Array<{ release: string; apiVersion: string; date: string; digest: string }>;
  };
const ADD_SECTION = {
  [`${SECTIONS}/immutable.json`]: section(['addon:immutable'], 'immutable', '{{ __SET_ID__.immutable }}'),
  [`${EXAMPLES}/immutable.json`]: example(['addon:immutable'], { immutable: true }),
};

describe('releases', () => {
  it('refuse other content under a released version', async () => {
    const run = await release({ [`${SECTIONS}/data.json`]: section(['addon:data'], 'data', '{{ __SET_ID__.settings }}') });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('demo-resources release 1.0.0 is already built');
    expect(run.stderr).toContain('set "release" in repos/demo-resources/repository.json to 1.0.1 (a fix) or 1.1.0 (an addition)');
  });

  it('accept a new section as a minor release, list both releases in the index, and say what changed', async () => {
    const run = await release({ ...ADD_SECTION, [`${REPO}/repository.json`]: declaration('1.1.0') });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'demo-resources v1 1.1.0 after 1.0.0: adds facet addon:immutable to settings; adds section immutable to settings; adds optional input immutable to settings',
    );
    expect(index(run.dist).bundles.map((entry) => entry.release)).toEqual(['1.0.0', '1.1.0']);
    expect(index(run.dist).bundles[1]!.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('refuse an addition released as a patch, naming the release to use', async () => {
    const run = await release({ ...ADD_SECTION, [`${REPO}/repository.json`]: declaration('1.0.1') });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'demo-resources: adds facet addon:immutable to settings; adds section immutable to settings; adds optional input immutable to settings: release as 1.1.0 (after 1.0.0), not 1.0.1',
    );
  });

  it('accept a description change as a patch', async () => {
    const data = JSON.parse(readFileSync(path.join(DEMO_REPOS, SECTIONS, 'data.json'), 'utf8'));
    const run = await release({
      [`${SECTIONS}/data.json`]: JSON.stringify({ ...data, $description: 'The settings, as key and value.' }),
      [`${REPO}/repository.json`]: declaration('1.0.1'),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('1.0.1 after 1.0.0: changes the description of section data of settings');
  });

  const V2_ADVICE =
    'A breaking change needs the next API version: set "apiVersion": "v2" in repos/demo-resources/repository.json; v1 keeps being served from its releases in dist/.';
  const breaking: Array<{ what: string; files: Record<string, string>; remove?: string[]; expected: string }> = [
    {
      what: 'removing a facet',
      files: {
        [`${SECTIONS}/data.json`]: section(['addon:settings'], 'data', '{{ __SET_ID__.data }}'),
        [`${EXAMPLES}/basic.json`]: example(['addon:settings'], { data: { A: '1' } }),
      },
      expected: 'removes facet addon:data from settings',
    },
    {
      what: 'removing a section',
      files: { [`${EXAMPLES}/basic.json`]: example([], {}) },
      remove: [`${SECTIONS}/data.json`],
      expected: 'removes section data from settings',
    },
    {
      what: 'removing an input path',
      files: {
        [`${SECTIONS}/data.json`]: section(['addon:data'], 'data', '{{ __SET_ID__.settings }}'),
        [`${EXAMPLES}/basic.json`]: example(['addon:data'], { settings: { A: '1' } }),
      },
      expected: 'no longer reads input data of settings',
    },
    {
      what: 'narrowing a type',
      files: {
        [`${SECTIONS}/data.json`]: JSON.stringify({
          facets: ['addon:data'],
          data: '{{ __SET_ID__.data }}',
          $values: { data: { schema: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 5 } } },
        }),
      },
      expected: 'narrows or changes the type of input data of settings',
    },
    {
      what: 'requiring a new input',
      files: {
        [`${SECTIONS}/data.json`]: JSON.stringify({
          facets: ['addon:data'],
          data: '{{ __SET_ID__.data }}',
          $values: { data: { required: true } },
        }),
      },
      expected: 'section data of settings now requires a value for /data',
    },
    {
      what: 'a new section under an existing facet that requires a value',
      files: {
        [`${SECTIONS}/label.json`]: JSON.stringify({
          facets: ['addon:data'],
          immutable: '{{ __SET_ID__.frozen }}',
          $values: { frozen: { required: true } },
        }),
        [`${EXAMPLES}/basic.json`]: example(['addon:data'], { data: { A: '1' }, frozen: true }),
      },
      expected:
        'adds section label to settings under existing facet addon:data, requiring /immutable: requests with that facet would have to send it',
    },
    {
      what: 'changing the kind',
      files: {
        [`${REPO}/settings/collection.json`]: JSON.stringify({
          name: 'settings',
          variable: '__SET_ID__',
          kind: 'Secret',
          apiVersion: 'v1',
          description: 'Settings.',
        }),
        [`${SECTIONS}/core.json`]: JSON.stringify({
          facets: ['master'],
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: '{{ __SET_ID__.metadata }}',
        }),
      },
      expected: 'changes the kind of settings from ConfigMap to Secret',
    },
  ];

  for (const { what, files, remove, expected } of breaking) {
    it(`refuse ${what} within an API version, even as a minor release, advising v2`, async () => {
      const run = await release({ ...files, [`${REPO}/repository.json`]: declaration('1.1.0') }, remove);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('demo-resources 1.1.0 breaks callers of v1 (released 1.0.0): ');
      expect(run.stderr).toContain(expected);
      expect(run.stderr).toContain(V2_ADVICE);
    });
  }

  it('accept a widened type as a minor release: a longer enum, also inside array items, an integer taking any number', async () => {
    const tags = (values: string[], type: string) =>
      JSON.stringify({
        facets: ['addon:tags'],
        metadata2: { tags: '{{ __SET_ID__.tags }}', count: '{{ __SET_ID__.count }}' },
        $values: { tags: { schema: { type: 'array', items: { enum: values } } }, count: { schema: { type } } },
      });
    const narrow = repoCopy(DEMO_REPOS, {
      [`${SECTIONS}/tags.json`]: tags(['a'], 'integer'),
      [`${EXAMPLES}/tags.json`]: example(['addon:tags'], { tags: ['a'], count: 1 }),
    });
    const dist = await buildInto(narrow);
    const wide = repoCopy(narrow, {
      [`${SECTIONS}/tags.json`]: tags(['a', 'b'], 'number'),
      [`${REPO}/repository.json`]: declaration('1.1.0'),
    });
    const run = await runCli(['build', '--repos', wide, '--out', dist]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('widens the type of input tags of settings; widens the type of input count of settings');
  });

  it('accept breaking changes under the next API version, kept beside the released one', async () => {
    const run = await release({ [`${EXAMPLES}/basic.json`]: example([], {}), [`${REPO}/repository.json`]: declaration('2.0.0', 'v2') }, [
      `${SECTIONS}/data.json`,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(index(run.dist).bundles.map((entry) => `${entry.apiVersion} ${entry.release}`)).toEqual(['v1 1.0.0', 'v2 2.0.0']);
  });
});

describe('release order', () => {
  it('follows semver precedence, prereleases included', async () => {
    const { compareReleases } = await import('../src/release/release.js');
    const sorted = [
      '1.0.0',
      '1.0.0-rc.10',
      '1.0.0-rc.2',
      '0.9.9',
      '1.0.0-rc-2',
      '1.0.0-rc-1',
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.10.0',
      '1.2.0',
    ].sort(compareReleases);
    // "rc" sorts before "rc-1" as ASCII, so every rc.N comes before rc-N.
    expect(sorted).toEqual([
      '0.9.9',
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-rc.2',
      '1.0.0-rc.10',
      '1.0.0-rc-1',
      '1.0.0-rc-2',
      '1.0.0',
      '1.2.0',
      '1.10.0',
    ]);
  });
});
