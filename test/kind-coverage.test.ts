/**
 * Each shipped collection of a built-in kind covers its kind (issue 33): every member a user writes
 * (the kind's top-level members and the members of its spec, read from the kind's type in
 * kubernetes-models; apiVersion, kind, metadata and status aside) is written by some section of the
 * collection, and set by one of its examples, whose manifest renders exactly as its golden file
 * says (test/golden.test.ts). A new Kubernetes field, or a member no section writes, fails here by name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { holds, isBuiltInKind, writableMembers } from './helpers/kind-members.js';
import { repositoriesIn, ROOT, SHIPPED_REPOS } from './helpers/repos.js';

interface BuiltInCollection {
  repository: string;
  collection: string;
  apiVersion: string;
  kind: string;
}

/** The shipped collections whose kind kubernetes-models types (custom resources have their CRD's own checks). */
function builtInCollections(): BuiltInCollection[] {
  return repositoriesIn().flatMap(({ name, collections }) =>
    collections
      .map((collection) => {
        const { apiVersion, kind } = JSON.parse(readFileSync(path.join(SHIPPED_REPOS, name, collection, 'collection.json'), 'utf8'));
        return { repository: name, collection, apiVersion, kind } as BuiltInCollection;
      })
      .filter(({ apiVersion, kind }) => isBuiltInKind(apiVersion, kind)),
  );
}

/** The parsed JSON files of a folder. */
const jsonFiles = (dir: string): unknown[] => readdirSync(dir).map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')));

describe('each shipped collection of a built-in kind', () => {
  const collections = builtInCollections();

  it('is found in repos/', () => {
    expect(collections.length).toBeGreaterThan(0);
  });

  it.each(collections.map((c) => [`${c.repository}/${c.collection} (${c.kind})`, c] as const))(
    '%s has a section for every member a user writes',
    (_, found) => {
      const members = writableMembers(found.apiVersion, found.kind);
      expect(members.length).toBeGreaterThan(0);
      const sections = jsonFiles(path.join(SHIPPED_REPOS, found.repository, found.collection, 'sections'));
      const missing = members.filter((member) => !sections.some((section) => holds(section, member)));
      expect(missing, `members of ${found.kind} that no section of ${found.collection} writes: add a section for each`).toEqual([]);
    },
  );

  it.each(collections.map((c) => [`${c.repository}/${c.collection} (${c.kind})`, c] as const))(
    '%s sets every member a user writes in one of its examples (their golden manifests)',
    (_, found) => {
      const manifests = jsonFiles(path.join(ROOT, 'test/golden', found.repository, found.collection));
      const unset = writableMembers(found.apiVersion, found.kind).filter(
        (member) => !manifests.some((manifest) => holds(manifest, member)),
      );
      expect(unset, `members of ${found.kind} that no example of ${found.collection} sets: add an example`).toEqual([]);
    },
  );
});
