/**
 * The compatibility check (CONTRACT §9): a new release of a repository against the previous
 * release of the same API version. Additions need a minor release, other fixes a patch; anything
 * that could break a caller of that API version (a removed or renamed collection, section, facet or
 * input path, a narrowed type, a new required input, a changed kind, apiVersion or variable) needs
 * the next API version, served beside this one.
 */
import type { Bundle, BundleCollection, BundleSection } from '../bundle/bundle.js';
import { compareReleases, nextRelease } from '../release/release.js';
import type { Schema } from '../kubernetes/kind-schema.js';
import { isPlainObject } from '../util/json.js';
import { acceptsSame, compareLeaf, inputPaths, requiredPaths } from './schema-comparison.js';

export type ChangeLevel = 'patch' | 'minor' | 'breaking';

export interface Change {
  level: ChangeLevel;
  /** e.g. "adds facet addon:foo to service". */
  text: string;
}

const LEVELS: ChangeLevel[] = ['patch', 'minor', 'breaking'];

function compareSections(
  collection: string,
  before: BundleSection[],
  after: BundleSection[],
  facetsBefore: string[],
  changes: Change[],
): void {
  // A required placeholder reached by a facet callers already send would make their requests fail.
  const requiredFor = (section: BundleSection, facets: string[]) => {
    const existing = facets.filter((facet) => facetsBefore.includes(facet));
    return existing.length > 0 && section.required.length > 0 ? existing : [];
  };
  const next = new Map(after.map((section) => [section.name, section]));
  const previous = new Map(before.map((section) => [section.name, section]));
  for (const section of before) {
    const now = next.get(section.name);
    if (now === undefined) {
      changes.push({ level: 'breaking', text: `removes section ${section.name} from ${collection}` });
      continue;
    }
    for (const facet of section.facets) {
      if (!now.facets.includes(facet))
        changes.push({ level: 'breaking', text: `section ${section.name} of ${collection} no longer answers to facet ${facet}` });
    }
    for (const facet of now.facets) {
      if (section.facets.includes(facet)) continue;
      const breaking = requiredFor(now, [facet]).length > 0;
      changes.push({
        level: breaking ? 'breaking' : 'minor',
        text: breaking
          ? `section ${section.name} of ${collection} now answers to facet ` +
            `${facet} and requires ${now.required.join(', ')}: requests with ` +
            `${facet} would have to send it`
          : `section ${section.name} of ${collection} also answers to facet ${facet}`,
      });
    }
    for (const pointer of now.required) {
      if (!section.required.includes(pointer))
        changes.push({ level: 'breaking', text: `section ${section.name} of ${collection} now requires a value for ${pointer}` });
    }
    if (JSON.stringify(section.content) !== JSON.stringify(now.content))
      changes.push({ level: 'minor', text: `changes what section ${section.name} of ${collection} renders` });
    if (section.description !== now.description)
      changes.push({ level: 'patch', text: `changes the description of section ${section.name} of ${collection}` });
  }
  for (const section of after) {
    if (previous.has(section.name)) continue;
    const existing = requiredFor(section, section.facets);
    changes.push(
      existing.length > 0
        ? {
            level: 'breaking',
            text:
              `adds section ${section.name} to ${collection} under existing ` +
              `facet ${existing.join(', ')}, requiring ${section.required.join(', ')}: ` +
              `requests with that facet would have to send it`,
          }
        : { level: 'minor', text: `adds section ${section.name} to ${collection}` },
    );
  }
}

/**
 * The input schema each collection of a new release would have from the Kubernetes types alone
 * (no `$values` refinements), by collection name. A leaf that narrows only to what Kubernetes says
 * of its member is a fix: every value it now refuses, the API server refused anyway (and the
 * server's manifest check refuses it in every release).
 */
export type KubernetesInputs = ReadonlyMap<string, Schema>;

function compareCollection(before: BundleCollection, after: BundleCollection, changes: Change[], kubernetesInput?: Schema): void {
  const name = before.name;
  for (const member of ['kind', 'apiVersion', 'variable'] as const) {
    if (before[member] !== after[member])
      changes.push({ level: 'breaking', text: `changes the ${member} of ${name} from ${before[member]} to ${after[member]}` });
  }
  for (const facet of before.facets)
    if (!after.facets.includes(facet)) changes.push({ level: 'breaking', text: `removes facet ${facet} from ${name}` });
  for (const facet of after.facets)
    if (!before.facets.includes(facet)) changes.push({ level: 'minor', text: `adds facet ${facet} to ${name}` });
  compareSections(name, before.sections, after.sections, before.facets, changes);

  const pathsBefore = inputPaths(before.schema);
  const pathsAfter = inputPaths(after.schema);
  const kubernetesPaths = kubernetesInput === undefined ? undefined : inputPaths(kubernetesInput);
  for (const [path, schema] of pathsBefore) {
    const now = pathsAfter.get(path);
    if (now === undefined) {
      changes.push({ level: 'breaking', text: `no longer reads input ${path} of ${name}` });
      continue;
    }
    const comparison = compareLeaf(schema, now);
    const kubernetes = kubernetesPaths?.get(path);
    if (comparison === 'changed' && kubernetes !== undefined && compareLeaf({ ...schema, ...kubernetes }, now) !== 'changed') {
      changes.push({
        level: 'patch',
        text: `input ${path} of ${name} takes Kubernetes' own constraints, which the API server applied already`,
      });
      continue;
    }
    if (comparison === 'changed') changes.push({ level: 'breaking', text: `narrows or changes the type of input ${path} of ${name}` });
    if (comparison === 'wider') changes.push({ level: 'minor', text: `widens the type of input ${path} of ${name}` });
  }
  const requiredBefore = requiredPaths(before.schema);
  const requiredAfter = requiredPaths(after.schema);
  for (const path of pathsAfter.keys()) {
    if (!pathsBefore.has(path) && !requiredAfter.has(path))
      changes.push({ level: 'minor', text: `adds optional input ${path} to ${name}` });
  }
  for (const path of requiredAfter) {
    if (!requiredBefore.has(path)) changes.push({ level: 'breaking', text: `requires a new input ${path} of ${name}` });
  }

  // Kubernetes' own types change only with the Kubernetes types the build reads (kubernetes-models).
  const definitionsBefore = isPlainObject(before.schema.definitions) ? before.schema.definitions : {};
  const definitionsAfter = isPlainObject(after.schema.definitions) ? after.schema.definitions : {};
  const changedTypes = Object.keys(definitionsBefore).filter(
    (type) => Object.hasOwn(definitionsAfter, type) && !acceptsSame(definitionsBefore[type], definitionsAfter[type]),
  );
  if (changedTypes.length > 0)
    changes.push({
      level: 'patch',
      text: `takes the Kubernetes types ${changedTypes.join(', ')} of ${name} as kubernetes-models now gives them`,
    });
  if (before.description !== after.description) changes.push({ level: 'patch', text: `changes the description of ${name}` });
  if (JSON.stringify(before.examples) !== JSON.stringify(after.examples))
    changes.push({ level: 'patch', text: `changes the examples of ${name}` });
}

export function compareBundles(before: Bundle, after: Bundle, kubernetesInputs?: KubernetesInputs): Change[] {
  const changes: Change[] = [];
  if (before.repository.vendor !== after.repository.vendor)
    changes.push({ level: 'breaking', text: `changes the vendor from ${before.repository.vendor} to ${after.repository.vendor}` });
  const next = new Map(after.collections.map((collection) => [collection.name, collection]));
  for (const collection of before.collections) {
    const now = next.get(collection.name);
    if (now === undefined) changes.push({ level: 'breaking', text: `removes collection ${collection.name}` });
    else compareCollection(collection, now, changes, kubernetesInputs?.get(collection.name));
  }
  const previous = new Set(before.collections.map((collection) => collection.name));
  for (const collection of after.collections)
    if (!previous.has(collection.name)) changes.push({ level: 'minor', text: `adds collection ${collection.name}` });
  if (before.repository.description !== after.repository.description)
    changes.push({ level: 'patch', text: 'changes the description of the repository' });
  return changes;
}

export function highestLevel(changes: Change[]): ChangeLevel | undefined {
  return changes.reduce<ChangeLevel | undefined>(
    (highest, change) => (highest === undefined || LEVELS.indexOf(change.level) > LEVELS.indexOf(highest) ? change.level : highest),
    undefined,
  );
}

export interface Verdict {
  ok: boolean;
  changes: Change[];
  /** What to tell the author. */
  message: string;
}

/** Judges `after` as the release that follows `before` within one API version, by its inputs and, given them, by what it renders. */
export function judgeRelease(before: Bundle, after: Bundle, kubernetesInputs?: KubernetesInputs, renderedChanges: Change[] = []): Verdict {
  const changes = [...compareBundles(before, after, kubernetesInputs), ...renderedChanges];
  const level = highestLevel(changes);
  const { name, apiVersion, release } = after.repository;
  const previous = before.repository.release;
  const listed = (wanted: ChangeLevel) => changes.filter((change) => change.level === wanted).map((change) => change.text);
  if (level === 'breaking') {
    const next = `v${Number(apiVersion.replace(/^v(\d+).*/, '$1')) + 1}`;
    return {
      ok: false,
      changes,
      message:
        `${name} ${release} breaks callers of ${apiVersion} (released ${previous}): ${listed('breaking').join('; ')}. ` +
        `A breaking change needs the next API version: set "apiVersion": "${next}" in repos/${name}/repository.json; ` +
        `${apiVersion} keeps being served from its releases in dist/.`,
    };
  }
  if (level !== undefined && compareReleases(release, nextRelease(previous, level)) < 0) {
    return {
      ok: false,
      changes,
      message: `${name}: ${listed(level).join('; ')}: release as ${nextRelease(previous, level)} (after ${previous}), not ${release}`,
    };
  }
  return {
    ok: true,
    changes,
    message: `${name} ${apiVersion} ${release} after ${previous}: ${changes.length === 0 ? 'no changes' : changes.map((change) => change.text).join('; ')}`,
  };
}
