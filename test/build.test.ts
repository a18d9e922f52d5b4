import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson, type Bundle } from '../src/bundle/bundle.js';
import { sha256Digest } from '../src/util/digest.js';
import { loadBundles } from '../src/bundle/load.js';
import { buildInto, runCli } from './helpers/build.js';
import { declaredRelease, repoCopy, repositoriesIn, ROOT, SHIPPED_REPOS, tempDir } from './helpers/repos.js';

function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (current: string) => {
    for (const entry of readdirSync(current)) {
      const full = path.join(current, entry);
      if (statSync(full).isDirectory()) walk(full);
      else files[path.relative(dir, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  walk(dir);
  return files;
}

let dist: string;
beforeAll(async () => {
  dist = await buildInto(SHIPPED_REPOS);
}, 60_000);

describe('facetform build', () => {
  it('writes one bundle per repository release, and a schema and declarations per collection', () => {
    const files = Object.keys(snapshot(dist)).sort();
    const repositories = repositoriesIn();
    const collections = repositories.flatMap((repository) =>
      repository.collections.map((collection) => `${repository.name}/v1/${repository.release}/%/${collection}`),
    );
    expect(files.filter((file) => file.endsWith('bundle.json'))).toEqual(
      repositories.map((repository) => `${repository.name}/v1/${repository.release}/bundle.json`),
    );
    expect(files.filter((file) => file.endsWith('.schema.json'))).toEqual(
      collections.map((file) => file.replace('%', 'schemas') + '.schema.json').sort(),
    );
    expect(files.filter((file) => file.endsWith('.d.ts'))).toEqual(collections.map((file) => file.replace('%', 'types') + '.d.ts').sort());
    expect(files).toContain('index.json');
    const index = JSON.parse(readFileSync(path.join(dist, 'index.json'), 'utf8'));
    expect(index.bundles.map((entry: { repository: string; collections: string[] }) => entry.collections)).toEqual(
      repositories.map((repository) => repository.collections),
    );
  });

  it('changes no byte when built twice, into the same folder or a new one', async () => {
    const first = snapshot(dist);
    await buildInto(SHIPPED_REPOS, dist);
    expect(snapshot(dist)).toEqual(first);
    expect(snapshot(await buildInto(SHIPPED_REPOS))).toEqual(first);
  });

  it('finds the committed dist/ up to date: building repos/ into a copy of it changes no byte', async () => {
    const copy = tempDir();
    cpSync(path.join(ROOT, 'dist'), copy, { recursive: true });
    const before = snapshot(copy);
    await buildInto(SHIPPED_REPOS, copy);
    expect(snapshot(copy)).toEqual(before);
  });

  it('seals each bundle with the sha256 of its canonical content', () => {
    const bundle = JSON.parse(
      readFileSync(path.join(dist, `service-resources/v1/${declaredRelease('service-resources')}/bundle.json`), 'utf8'),
    ) as Bundle;
    const { digest, ...content } = bundle;
    expect(digest).toBe(sha256Digest(canonicalJson(content)));
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('refuses to load a bundle whose content no longer matches its digest, naming the file', async () => {
    const copy = await buildInto(SHIPPED_REPOS);
    const file = path.join(copy, `extend-resources/v1/${declaredRelease('extend-resources')}/bundle.json`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"CustomResourceDefinition"', '"CustomResourceDefinitionX"'));
    expect(() => loadBundles(copy)).toThrow(`${file}: content does not match its digest`);
  });

  it('leaves index.json whole and names the file when it cannot be written, as on a full disk', async () => {
    const out = await buildInto(SHIPPED_REPOS);
    const index = path.join(out, 'index.json');
    const before = readFileSync(index, 'utf8');
    // A new patch release of one repository, so the build must rewrite the index …
    const changed = repoCopy(SHIPPED_REPOS);
    const [major, minor, patch] = declaredRelease('extend-resources').split('.').map(Number) as [number, number, number];
    const declaration = path.join(changed, 'extend-resources/repository.json');
    writeFileSync(
      declaration,
      JSON.stringify({
        ...JSON.parse(readFileSync(declaration, 'utf8')),
        release: `${major}.${minor}.${patch + 1}`,
        description: 'Changed.',
      }),
    );
    // … and its temporary file cannot be written.
    mkdirSync(`${index}.${process.pid}.tmp`);
    const run = await runCli(['build', '--repos', changed, '--out', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`build failed: cannot write ${index} (`);
    expect(readFileSync(index, 'utf8')).toBe(before);
    expect(loadBundles(out)).toHaveLength(repositoriesIn().length);
  });

  it('refuses to build other content under a released version and names the versions to use', async () => {
    const out = await buildInto(SHIPPED_REPOS);
    const changed = repoCopy(SHIPPED_REPOS);
    const section = path.join(changed, 'service-resources/service/sections/type.json');
    writeFileSync(section, readFileSync(section, 'utf8').replace('Sets how the Service is exposed', 'Chooses how the Service is exposed'));
    const run = await runCli(['build', '--repos', changed, '--out', out]);
    expect(run.code).toBe(1);
    const [major, minor, patch] = declaredRelease('service-resources').split('.').map(Number) as [number, number, number];
    expect(run.stderr).toContain(`service-resources release ${major}.${minor}.${patch} is already built`);
    expect(run.stderr).toContain(`to ${major}.${minor}.${patch + 1} (a fix) or ${major}.${minor + 1}.0 (an addition)`);
    expect(loadBundles(out)).toHaveLength(3);
  });

  it('fails one run with one error per planted fault, each naming its file and line', async () => {
    const service = 'service-resources/service/sections';
    const copy = repoCopy(SHIPPED_REPOS, {
      [`${service}/broken.json`]: '{\n  "facets": ["addon:spec"],\n  "spec": {\n',
      [`${service}/ports-typo.json`]:
        '{\n  "facets": ["addon:spec", "addon:ports"],\n  "spec": {\n    "ports": "{{ __SVC_ID__.spec.ports }"\n  }\n}\n',
      [`${service}/upper.json`]: '{\n  "facets": ["Addon:Ports"],\n  "spec": {\n    "sessionAffinity": "ClientIP"\n  }\n}\n',
      [`${service}/type2.json`]:
        '{\n  "facets": ["addon:spec", "addon:type2"],\n  "spec": {\n    "type": "{{ __SVC_ID__.spec.type }}"\n  }\n}\n',
    });
    const out = path.join(copy, 'out');
    const run = await runCli(['build', '--repos', copy, '--out', out]);
    expect(run.code).toBe(1);
    const errors = run.stderr
      .split('\n')
      .filter((line) => / error /.test(line))
      .map((line) => line.replace(copy + '/', ''));
    expect(errors).toEqual([
      `${service}/broken.json:4:1 error invalid JSON: expected "}" to close the object`,
      `${service}/ports-typo.json:4:15 error malformed placeholder: placeholder opened with "{{" is not closed with "}}"`,
      `${service}/type2.json:4:5 error spec.type is also written by ${copy}/${service}/type.json:5:5`,
      `${service}/upper.json:2:14 error facet "Addon:Ports" is not "master" or "addon:<name>"`,
    ]);
    expect(run.stderr).toContain('4 errors');
    expect(() => statSync(out)).toThrow();
  });
});
