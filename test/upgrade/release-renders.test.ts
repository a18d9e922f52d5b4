/**
 * Releases judged by what they render (CONTRACT §9): changes planted in a copy of repos/, built into
 * a copy of the committed dist/, each with the verdict `kubectl apply` would give callers.
 */
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/build.js';
import {
  collectionOfKind,
  committedReleases,
  repoCopy,
  repositoriesIn,
  ROOT,
  SHIPPED_REPOS,
  tempDir,
  roomForASection,
  roomsForASection,
} from '../helpers/repos.js';

const DIST = path.join(ROOT, 'dist');

const STORAGE = collectionOfKind('StorageClass');
const INGRESS_CLASS = collectionOfKind('IngressClass');
const BACKUP = collectionOfKind('BackupPolicy');

/** The next minor release of a repository, as its author would declare it. */
function minorBump(repository: string, repos = SHIPPED_REPOS): Record<string, string> {
  const file = path.join(repos, repository, 'repository.json');
  const declaration = JSON.parse(readFileSync(file, 'utf8')) as { release: string };
  const [major, minor] = declaration.release.split('.').map(Number) as [number, number];
  return { [`${repository}/repository.json`]: JSON.stringify({ ...declaration, release: `${major}.${minor + 1}.0` }, null, 2) + '\n' };
}

/** A section file of a shipped collection with `edit` applied to its text. */
function edited(
  collection: { repository: string; collection: string },
  section: string,
  edit: (text: string) => string,
): Record<string, string> {
  const relative = `${collection.repository}/${collection.collection}/sections/${section}.json`;
  const text = readFileSync(path.join(SHIPPED_REPOS, relative), 'utf8');
  const changed = edit(text);
  if (changed === text) throw new Error(`the edit of ${relative} changed nothing: the shipped section no longer reads as the test expects`);
  return { [relative]: changed };
}

/** `example <name>` for any example of the collection, as the judge names the request. */
function anExample(collection: { repository: string; collection: string }): string {
  const names = readdirSync(path.join(SHIPPED_REPOS, collection.repository, collection.collection, 'examples')).map((file) =>
    file.replace(/\.json$/, ''),
  );
  return `example (?:${names.join('|')})`;
}

function distCopy(): string {
  const dist = tempDir('facetform-dist-');
  cpSync(path.join(ROOT, 'dist'), dist, { recursive: true });
  return dist;
}

async function build(repos: string, dist = distCopy()) {
  return { ...(await runCli(['build', '--repos', repos, '--out', dist])), dist };
}

const V2_ADVICE = 'A breaking change needs the next API version';

describe('a release judged by what it renders', () => {
  it("refuses a StorageClass provisioner change under a minor release, naming the example, the field and the API server's reason", async () => {
    const repos = repoCopy(SHIPPED_REPOS, {
      ...edited(STORAGE, 'provisioner', (text) => text.replace('"{{ __SC_ID__.spec.provisioner', '"csi.{{ __SC_ID__.spec.provisioner')),
      ...minorBump(STORAGE.repository),
    });
    const run = await build(repos);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `storageclass, ${anExample(STORAGE)}: /provisioner changes from "[^"]+" to "csi\\.[^"]+": updates to provisioner are forbidden`,
      ),
    );
    expect(run.stderr).toContain(V2_ADVICE);
    // The reviewer's view comes with the refusal.
    expect(run.stderr).toMatch(/~ \/provisioner {2}"[^"]+" → "csi\.[^"]+"\n {10}BREAKING, immutable: /);
    expect(run.stderr).toContain('nothing was written');
  });

  it('accepts a new optional section as a minor release: no existing request renders differently', async () => {
    // A section a shipped collection can still take, whichever sections authors have added since.
    const room = roomForASection();
    const { found, section } = room;
    const repos = repoCopy(SHIPPED_REPOS, {
      [`${found.repository}/${found.collection}/sections/${section}.json`]: JSON.stringify(room.content),
      [`${found.repository}/${found.collection}/examples/${section}-planted.json`]: JSON.stringify(room.example),
      ...minorBump(found.repository),
    });
    const run = await build(repos);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`adds section ${section} to ${found.collection}`);
    expect(run.stdout).not.toContain('renders differently');
  });

  it('accepts a changed label value as a minor release, and shows it in the diff', async () => {
    // A collection with a label the template writes itself, released first; then the label's value changes.
    const namespace = 'service-resources/namespace';
    const core = (level: string) =>
      JSON.stringify({
        $description: 'Sets apiVersion, kind, the name and the Pod Security level the namespace enforces.',
        facets: ['master'],
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: '{{ __NS_ID__.metadata.name }}', labels: { 'pod-security.kubernetes.io/enforce': level } },
      });
    const first = repoCopy(SHIPPED_REPOS, {
      [`${namespace}/collection.json`]: JSON.stringify({
        name: 'namespace',
        variable: '__NS_ID__',
        kind: 'Namespace',
        apiVersion: 'v1',
        description: 'A Namespace for one team.',
      }),
      [`${namespace}/sections/core.json`]: core('baseline'),
      [`${namespace}/examples/seed.json`]: JSON.stringify({
        $description: 'The namespace of team A.',
        values: { team: { metadata: { name: 'team-a' } } },
      }),
      ...minorBump('service-resources'),
    });
    const released = await build(first);
    expect(released.code, released.stderr).toBe(0);

    const second = repoCopy(first, { [`${namespace}/sections/core.json`]: core('restricted'), ...minorBump('service-resources', first) });
    const diff = await runCli(['diff', 'service-resources', '--repos', second, '--bundles', released.dist]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain(
      '~ /metadata/labels/pod-security.kubernetes.io~1enforce  "baseline" → "restricted"\n          minor, accepted: ',
    );
    expect(diff.stdout).toContain('verdict: the build accepts');

    const run = await build(second, released.dist);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /namespace renders differently for \d+ of \d+ requests \(\/metadata\/labels\/pod-security\.kubernetes\.io~1enforce\)/,
    );
  });

  it("refuses a new source of metadata.name: kubectl apply would create another object beside the caller's", async () => {
    const repos = repoCopy(SHIPPED_REPOS, {
      ...edited(INGRESS_CLASS, 'core', (text) =>
        text.replace('"name": "{{ __INGCLASS_ID__.metadata.name }}"', '"name": "ingress-{{ __INGCLASS_ID__.metadata.name }}"'),
      ),
      ...minorBump(INGRESS_CLASS.repository),
    });
    const run = await build(repos);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `ingressclass, ${anExample(INGRESS_CLASS)}: /metadata/name changes from "([^"]+)" to "ingress-\\1": renames the IngressClass`,
      ),
    );
    expect(run.stderr).toContain(V2_ADVICE);
  });

  it("refuses what a custom resource's CRD forbids on update: a transition rule such as self == oldSelf", async () => {
    const repos = repoCopy(SHIPPED_REPOS, {
      ...edited(BACKUP, 'core', (text) => text.replace('"bucket": "{{', '"bucket": "archive-{{')),
      ...minorBump(BACKUP.repository),
    });
    const run = await build(repos);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `backuppolicy, ${anExample(BACKUP)}: /spec/storage/bucket changes from "([^"]+)" to "archive-\\1": Invalid value: "string": the bucket of a policy cannot be changed`,
      ),
    );
  });

  it('refuses a change under a CRD transition rule it cannot run, rather than call it accepted: the API server runs it', async () => {
    // First a release whose CRD guards the bucket with a rule @bufbuild/cel cannot run (a two-variable comprehension), then a change of the bucket.
    const crd = `${BACKUP.repository}/crds/backuppolicies.yaml`;
    const rule = readFileSync(path.join(SHIPPED_REPOS, crd), 'utf8').replace(
      '- rule: self == oldSelf',
      "- rule: '[self].all(i, v, v == oldSelf)'",
    );
    const first = repoCopy(SHIPPED_REPOS, { [crd]: rule, ...minorBump(BACKUP.repository) });
    const released = await build(first);
    expect(released.code, released.stderr).toBe(0);
    const second = repoCopy(first, {
      ...edited(BACKUP, 'core', (text) => text.replace('"bucket": "{{', '"bucket": "archive-{{')),
      ...minorBump(BACKUP.repository, first),
    });
    const run = await build(second, released.dist);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /\/spec\/storage\/bucket changes from "([^"]+)" to "archive-\1": the BackupPolicy CRD of the previous release guards it with the transition rule "\[self\]\.all\(i, v, v == oldSelf\)", which cannot be run here/,
    );
  });
});

describe('facetform diff', () => {
  it("shows the author's change first, and each repository left as built in one line", async () => {
    // A section in the last repository, which diff used to print after every untouched one.
    const room = roomsForASection().at(-1)!;
    const { found, section } = room;
    const bump = minorBump(found.repository);
    const repos = repoCopy(SHIPPED_REPOS, {
      [`${found.repository}/${found.collection}/sections/${section}.json`]: JSON.stringify(room.content),
      [`${found.repository}/${found.collection}/examples/${section}-planted.json`]: JSON.stringify(room.example),
      ...bump,
    });
    const run = await runCli(['diff', '--repos', repos, '--bundles', DIST]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    const next = (JSON.parse(Object.values(bump)[0]!) as { release: string }).release;
    expect(lines[0]).toMatch(new RegExp(`^${found.repository} v1 [\\d.]+ → ${next.replaceAll('.', '\\.')}: `));
    const untouched = repositoriesIn().filter(({ name }) => name !== found.repository);
    const verdict = lines.findIndex((line) => line.startsWith('  verdict: '));
    expect(lines.slice(0, verdict).join('\n')).toContain(`adds section ${section} to ${found.collection}`);
    expect(lines.slice(verdict + 1)).toEqual(
      untouched.map(({ name, release }) =>
        expect.stringMatching(
          new RegExp(
            `^${name} v1 ${release.replaceAll('.', '\\.')}: unchanged since its build \\(facetform diff ${name} shows it against `,
          ),
        ),
      ),
    );

    // Named, an untouched repository is compared in full with the release before it, as before.
    const named = await runCli(['diff', untouched[0]!.name, '--repos', repos, '--bundles', DIST]);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toMatch(new RegExp(`^${untouched[0]!.name} v1 [\\d.]+ → ${untouched[0]!.release.replaceAll('.', '\\.')}: `));
    expect(named.stdout).toContain('  verdict: the build accepts');
  });

  it('shows what the shipped repositories changed since their first release, every collection classified', async () => {
    for (const { name, release, collections } of repositoriesIn()) {
      const [first] = committedReleases(name);
      const run = await runCli(['diff', name, '--from', first!, '--repos', SHIPPED_REPOS, '--bundles', DIST]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`${name} v1 ${first} → ${release}: `);
      const firstCollections = (
        JSON.parse(readFileSync(path.join(DIST, name, 'v1', first!, 'bundle.json'), 'utf8')) as { collections: Array<{ name: string }> }
      ).collections.map((c) => c.name);
      for (const collection of collections) {
        expect(run.stdout).toMatch(
          firstCollections.includes(collection)
            ? new RegExp(`\n {2}${collection} \\(\\w+\\): \\d+ requests?, `)
            : new RegExp(`\n {2}\\+ ${collection} \\(\\w+\\): a new collection`),
        );
      }
      expect(run.stdout).toContain(`verdict: the build accepts ${release} after ${first}`);
    }
  });

  it('compares two built releases with --to, and says which releases exist when asked for one that does not', async () => {
    const [first, second] = committedReleases('service-resources');
    const run = await runCli(['diff', 'service-resources', '--from', first!, '--to', second!, '--bundles', DIST]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`service-resources v1 ${first} → ${second}: `);
    const missing = await runCli(['diff', 'service-resources', '--from', '0.0.1', '--repos', SHIPPED_REPOS, '--bundles', DIST]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`has no release 0.0.1 in ${DIST}; it has ${committedReleases('service-resources').join(', ')}`);
    const backwards = await runCli(['diff', 'service-resources', '--from', second!, '--to', first!, '--bundles', DIST]);
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toContain(`--from ${second} is not a release before ${first}`);
    const unknown = await runCli(['diff', 'no-such-repository', '--repos', SHIPPED_REPOS, '--bundles', DIST]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no repository "no-such-repository"; there are ');
  });
});
