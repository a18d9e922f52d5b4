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
import { kubeModel } from '../src/kubernetes/kube-models.js';
import { KubeTypes } from '../src/kubernetes/kube-types.js';
import type { Schema } from '../src/kubernetes/kind-schema.js';
import { repositoriesIn, ROOT, SHIPPED_REPOS } from './helpers/repos.js';

/** Members the API server sets, which a manifest does not write. */
const NOT_WRITTEN = new Set(['apiVersion', 'kind', 'metadata', 'status']);

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
      .filter(({ apiVersion, kind }) => kubeModel(apiVersion, kind) !== undefined),
  );
}

const resolve = (schema: Schema, definitions: Record<string, Schema>): Schema =>
  typeof schema.$ref === 'string' ? resolve(definitions[schema.$ref.replace('#/definitions/', '')]!, definitions) : schema;

/** The kind's writable members: top-level ones, and spec's members in place of spec. */
function writableMembers(apiVersion: string, kind: string): string[] {
  const schema = KubeTypes.shared().add([{ apiVersion, kind }]).kindSchema(apiVersion, kind)!;
  const root = resolve(schema.definitions[kind]!, schema.definitions);
  const properties = (node: Schema) => Object.keys((node.properties ?? {}) as Record<string, Schema>);
  return properties(root)
    .filter((member) => !NOT_WRITTEN.has(member))
    .flatMap((member) => {
      if (member !== 'spec') return [member];
      const spec = resolve((root.properties as Record<string, Schema>).spec!, schema.definitions);
      return properties(spec).map((child) => `spec.${child}`);
    })
    .sort();
}

/** Whether `value` holds `member` (a dotted path), as a value or an object below it. */
function holds(value: unknown, member: string): boolean {
  let node = value;
  for (const segment of member.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return false;
    node = (node as Record<string, unknown>)[segment];
  }
  return true;
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
