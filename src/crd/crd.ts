/**
 * A CustomResourceDefinition (apiextensions.k8s.io/v1) as a repository keeps it: read, checked as
 * the API server would check it on `kubectl apply` (its OpenAPI through kubernetes-models, then the
 * rules no schema can say: names, versions, structural schemas), so that lint can point at every
 * problem by a JSON Pointer into the file, and the build can ask which kinds it serves.
 */
import { ManifestCheck } from '../manifest/kube-check.js';
import { isPlainObject, type JsonObject, toPointer } from '../util/json.js';
import type { CrdProblem } from './crd-problem.js';
import { structuralProblems } from './structural.js';

export const CRD_API_VERSION = 'apiextensions.k8s.io/v1';
export const CRD_KIND = 'CustomResourceDefinition';

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  /** `schema.openAPIV3Schema` of the version. */
  schema: JsonObject;
  /** Where that schema sits in the CRD file: the prefix of the pointers of its problems and rules. */
  schemaPointer: string;
}

export interface Crd {
  /** metadata.name: `<plural>.<group>`. */
  name: string;
  group: string;
  kind: string;
  plural: string;
  scope: 'Namespaced' | 'Cluster';
  versions: CrdVersion[];
}

export interface CrdReading {
  /** Undefined when the file does not say enough to serve a kind (not a CRD, no group, kind or versions). */
  crd: Crd | undefined;
  problems: CrdProblem[];
}

/** DNS-1123 subdomain, as Kubernetes checks a group: lower case, dots between labels. */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** DNS-1035 label, as Kubernetes checks a plural name and a version name. */
const DNS_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
/** A kind is a Go identifier that starts upper case, by convention of every API. */
const KIND = /^[A-Z][A-Za-z0-9]*$/;

/** Reads and checks one parsed CRD file; every problem found, and the CRD when it can serve a kind. */
export function readCrd(value: unknown): CrdReading {
  const problems: CrdProblem[] = [];
  const add = (at: readonly (string | number)[], message: string, fix: string) => problems.push({ pointer: toPointer(at), message, fix });
  if (!isPlainObject(value)) {
    add([], 'a CustomResourceDefinition must be an object', `write a ${CRD_API_VERSION} ${CRD_KIND} manifest`);
    return { crd: undefined, problems };
  }
  if (value.apiVersion !== CRD_API_VERSION || value.kind !== CRD_KIND) {
    const old = value.apiVersion === 'apiextensions.k8s.io/v1beta1';
    add(
      [value.apiVersion !== CRD_API_VERSION ? 'apiVersion' : 'kind'],
      `not a ${CRD_API_VERSION} ${CRD_KIND}: apiVersion ${JSON.stringify(value.apiVersion)}, kind ${JSON.stringify(value.kind)}`,
      old
        ? 'apiextensions.k8s.io/v1beta1 left Kubernetes in 1.22: convert the file to v1 (one schema per version)'
        : `only ${CRD_KIND} manifests belong among the CRDs`,
    );
    return { crd: undefined, problems };
  }
  for (const problem of ManifestCheck.forKind(CRD_API_VERSION, CRD_KIND)!.problems(value)) {
    problems.push({
      pointer: problem.pointer,
      message: `${problem.pointer || '/'} ${problem.detail}`,
      fix: 'write the CRD as the Kubernetes API defines it (kubectl explain customresourcedefinition.spec shows each field)',
    });
  }
  // The API server's own rules (src/apiserver) have said what they refuse: a mistake is told once,
  // in their words, with lint's own fix where it has one; lint's hints speak where they said nothing.
  const told = [...problems];
  const hint: Add = (at, message, fix) => {
    const pointer = toPointer(at);
    const same = told.filter((problem) => problem.pointer === pointer);
    for (const problem of same) problem.fix = fix;
    if (same.length === 0 && !told.some((problem) => problem.pointer.startsWith(`${pointer}/`))) add(at, message, fix);
  };
  const spec = isPlainObject(value.spec) ? value.spec : {};
  const names = isPlainObject(spec.names) ? spec.names : {};
  const metadata = isPlainObject(value.metadata) ? value.metadata : {};
  const group = typeof spec.group === 'string' ? spec.group : undefined;
  const kind = typeof names.kind === 'string' ? names.kind : undefined;
  const plural = typeof names.plural === 'string' ? names.plural : undefined;

  if (group !== undefined && (!DNS_SUBDOMAIN.test(group) || !group.includes('.'))) {
    hint(
      ['spec', 'group'],
      `group ${JSON.stringify(group)} must be a DNS subdomain with at least one dot`,
      'use a domain your team owns, e.g. "platform.example.com"',
    );
  }
  if (kind !== undefined && !KIND.test(kind))
    hint(
      ['spec', 'names', 'kind'],
      `kind ${JSON.stringify(kind)} must start with an upper-case letter and hold only letters and digits`,
      'name the kind in UpperCamelCase, e.g. "Widget"',
    );
  if (plural !== undefined && !DNS_LABEL.test(plural))
    hint(
      ['spec', 'names', 'plural'],
      `plural ${JSON.stringify(plural)} must be a lower-case DNS label`,
      'use the lower-case plural of the kind, e.g. "widgets"',
    );
  if (typeof names.singular === 'string' && !DNS_LABEL.test(names.singular))
    hint(
      ['spec', 'names', 'singular'],
      `singular ${JSON.stringify(names.singular)} must be a lower-case DNS label`,
      'use the lower-case kind, e.g. "widget"',
    );
  if (typeof names.listKind === 'string' && !KIND.test(names.listKind))
    hint(
      ['spec', 'names', 'listKind'],
      `listKind ${JSON.stringify(names.listKind)} must start with an upper-case letter and hold only letters and digits`,
      `write "${kind ?? 'Widget'}List"`,
    );
  if (typeof spec.scope === 'string' && spec.scope !== 'Namespaced' && spec.scope !== 'Cluster')
    hint(
      ['spec', 'scope'],
      `scope must be Namespaced or Cluster, not ${JSON.stringify(spec.scope)}`,
      'write "Namespaced" for resources that live in a namespace, "Cluster" for the others',
    );
  if (group !== undefined && plural !== undefined && metadata.name !== `${plural}.${group}`) {
    hint(
      ['metadata', 'name'],
      `metadata.name must be "${plural}.${group}" (spec.names.plural + "." + spec.group), not ${JSON.stringify(metadata.name)}`,
      `write "name": "${plural}.${group}"`,
    );
  }
  if (spec.preserveUnknownFields === true) {
    hint(
      ['spec', 'preserveUnknownFields'],
      'spec.preserveUnknownFields must be false in apiextensions.k8s.io/v1',
      'remove it, and mark the open parts of the schema with x-kubernetes-preserve-unknown-fields: true',
    );
  }

  const versions = readVersions(spec.versions, hint);
  for (const version of versions) problems.push(...structuralProblems(version.schema, version.schemaPointer));

  const scope = spec.scope === 'Cluster' ? 'Cluster' : 'Namespaced';
  const crd =
    group !== undefined && kind !== undefined && plural !== undefined && versions.length > 0
      ? ({ name: `${plural}.${group}`, group, kind, plural, scope, versions } as Crd)
      : undefined;
  return { crd, problems };
}

type Add = (at: readonly (string | number)[], message: string, fix: string) => void;

function readVersions(list: unknown, add: Add): CrdVersion[] {
  if (!Array.isArray(list)) return [];
  if (list.length === 0)
    add(
      ['spec', 'versions'],
      'spec.versions must list at least one version',
      'add a version, e.g. { "name": "v1", "served": true, "storage": true, "schema": { "openAPIV3Schema": … } }',
    );
  const versions: CrdVersion[] = [];
  const seen = new Set<string>();
  let storage = 0;
  list.forEach((entry, index) => {
    if (!isPlainObject(entry) || typeof entry.name !== 'string') return;
    const at = ['spec', 'versions', index];
    if (seen.has(entry.name)) add([...at, 'name'], `version ${entry.name} is listed twice`, 'give each version its own name');
    seen.add(entry.name);
    if (!DNS_LABEL.test(entry.name))
      add(
        [...at, 'name'],
        `version name ${JSON.stringify(entry.name)} must be a lower-case DNS label`,
        'name versions as Kubernetes does: v1, v1beta1, v2alpha1',
      );
    if (entry.storage === true) storage++;
    const schema = isPlainObject(entry.schema) ? entry.schema.openAPIV3Schema : undefined;
    if (!isPlainObject(schema)) {
      add(
        [...at, 'schema'],
        `version ${entry.name} has no schema.openAPIV3Schema`,
        'apiextensions.k8s.io/v1 requires a structural schema for every version: add schema.openAPIV3Schema with type: object',
      );
      return;
    }
    versions.push({
      name: entry.name,
      served: entry.served === true,
      storage: entry.storage === true,
      schema: schema as JsonObject,
      schemaPointer: toPointer([...at, 'schema', 'openAPIV3Schema']),
    });
  });
  if (list.length > 0 && storage !== 1) {
    add(
      ['spec', 'versions'],
      `exactly one version must be the storage version (storage: true), not ${storage}`,
      'set storage: true on the version the cluster stores, and false on the others',
    );
  }
  return versions;
}

/** The (apiVersion, kind) pairs a CRD serves: one per served version. */
export function servedKinds(crd: Crd): Array<{ apiVersion: string; kind: string; version: CrdVersion }> {
  return crd.versions
    .filter((version) => version.served)
    .map((version) => ({ apiVersion: `${crd.group}/${version.name}`, kind: crd.kind, version }));
}

/** Which CRD and version serve an apiVersion and kind, among a repository's CRDs. */
export class CrdCatalog<Source = undefined> {
  private readonly byKind = new Map<string, { crd: Crd; version: CrdVersion; source: Source }>();
  /** Pairs served by more than one CRD: each after the first, with the CRD that took it. */
  readonly conflicts: Array<{ apiVersion: string; kind: string; source: Source; taken: Source }> = [];

  constructor(entries: Iterable<{ crd: Crd; source: Source }>) {
    for (const { crd, source } of entries) {
      for (const { apiVersion, kind, version } of servedKinds(crd)) {
        const key = `${apiVersion}|${kind}`;
        const taken = this.byKind.get(key);
        if (taken === undefined) this.byKind.set(key, { crd, version, source });
        else this.conflicts.push({ apiVersion, kind, source, taken: taken.source });
      }
    }
  }

  find(apiVersion: string, kind: string): { crd: Crd; version: CrdVersion; source: Source } | undefined {
    return this.byKind.get(`${apiVersion}|${kind}`);
  }

  /** Every served (apiVersion, kind), sorted. */
  kinds(): Array<{ apiVersion: string; kind: string }> {
    return [...this.byKind.keys()].sort().map((key) => {
      const [apiVersion, kind] = key.split('|') as [string, string];
      return { apiVersion, kind };
    });
  }
}
