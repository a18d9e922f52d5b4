/**
 * The kinds the shipped repositories render, read from repos/<repository>/<collection>/collection.json
 * (apiVersion, kind), and for a custom resource the CRD of its repository's crds/ that serves it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { SHIPPED_REPOS } from '../helpers/repos.js';
import type { Manifest } from './case.js';

export interface ShippedKind {
  apiVersion: string;
  kind: string;
  /** `<repository>/<collection>` of each collection that renders it. */
  collections: string[];
  /** For a custom resource: the CRD (parsed) and its file, relative to the repositories' root. */
  crd?: { manifest: Manifest; file: string };
}

export const kindKey = (apiVersion: string, kind: string) => `${apiVersion}|${kind}`;

/** Every CRD in a repository's crds/, parsed (one document a file). */
function crdsOf(repository: string, repos: string): Array<{ manifest: Manifest; file: string }> {
  const dir = path.join(repos, repository, 'crds');
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => /\.(ya?ml|json)$/.test(file));
  } catch {
    return [];
  }
  return files.sort().map((file) => ({
    manifest: parse(readFileSync(path.join(dir, file), 'utf8')) as Manifest,
    file: path.join(repository, 'crds', file),
  }));
}

const servesKind = (crd: Manifest, apiVersion: string, kind: string) =>
  crd.spec?.names?.kind === kind &&
  (crd.spec?.versions ?? []).some((version: Manifest) => version.served && `${crd.spec.group}/${version.name}` === apiVersion);

/** The kinds of the shipped repositories, sorted by kind. */
export function shippedKinds(repos = SHIPPED_REPOS): ShippedKind[] {
  const kinds = new Map<string, ShippedKind>();
  for (const repository of readdirSync(repos, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()) {
    const crds = crdsOf(repository, repos);
    for (const collection of readdirSync(path.join(repos, repository), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()) {
      let text: string;
      try {
        text = readFileSync(path.join(repos, repository, collection, 'collection.json'), 'utf8');
      } catch {
        continue;
      }
      const { apiVersion, kind } = JSON.parse(text) as { apiVersion: string; kind: string };
      const key = kindKey(apiVersion, kind);
      const entry = kinds.get(key) ?? { apiVersion, kind, collections: [] };
      entry.collections.push(`${repository}/${collection}`);
      const crd = crds.find((candidate) => servesKind(candidate.manifest, apiVersion, kind));
      if (crd !== undefined) entry.crd ??= crd;
      kinds.set(key, entry);
    }
  }
  return [...kinds.values()].sort((a, b) => a.kind.localeCompare(b.kind) || a.apiVersion.localeCompare(b.apiVersion));
}
