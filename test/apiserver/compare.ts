/**
 * Our verdict against the oracle's, and the report of where they differ. The rules:
 * - the verdicts must be equal: we refuse (any problem) exactly when the oracle refuses;
 * - a manifest the oracle could not decode (decodeError) only needs refusing;
 * - where the oracle refused with field errors and our schema check alone found nothing (native-only:
 *   the API server's hand-written rules decided), our problems must point at exactly the oracle's
 *   fields, as JSON Pointers;
 * - there, each pointer's details are compared with the oracle's messages (counted, not failed yet).
 */
import type { Problem } from '../../src/request/problems.js';
import { goPathToPointer, type OracleVerdict } from '../helpers/oracle.js';
import type { OurCheck } from './our-check.js';

export interface Comparison {
  agree: boolean;
  /** Why not: the verdicts differ, or (native-only) the pointers do. */
  reason?: 'verdict' | 'pointers';
  oracleRefuses: boolean;
  ourRefuses: boolean;
  decodeError: boolean;
  nativeOnly: boolean;
  ours: Problem[];
  /** The oracle's fields as pointers, sorted and distinct. */
  oraclePointers: string[];
  ourPointers: string[];
  /** Native-only, pointers agreeing: the pointers whose details differ from the oracle's messages. */
  messageDiffs: Array<{ pointer: string; ours: string[]; oracle: string[] }>;
}

const distinctSorted = (values: Iterable<string>) => [...new Set(values)].sort();
/** Go prints a pointer in a struct (`Controller:(*bool)(0xc000a1b2c8)`) by its address: not comparable. */
const withoutAddresses = (message: string) => message.replace(/\(0x[0-9a-f]+\)/g, '(0x…)');
const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((value, i) => value === b[i]);

/**
 * Go paths that do not name the manifest's member, and where our problems point instead, by kind:
 * a Go path matching `from` is read with `to` in its place. The product makes the same choices
 * (src/apiserver: FieldPath.childSpelled, locatedAt); a new one belongs in both places.
 */
type Manifest = Record<string, any>;

export const RELOCATIONS: ReadonlyArray<{
  kind: string;
  from: RegExp;
  to: string;
  when?: (manifest: Manifest, match: RegExpExecArray) => boolean;
}> = [
  // The REST storage derives clusterIPs from clusterIP: a caller who wrote only clusterIP is pointed at it.
  {
    kind: 'Service',
    from: /^spec\.clusterIPs(?:\[0\])?$/,
    to: 'spec.clusterIP',
    when: (m) =>
      typeof m.spec?.clusterIP === 'string' &&
      m.spec.clusterIP !== '' &&
      !(Array.isArray(m.spec?.clusterIPs) && m.spec.clusterIPs.length > 0),
  },
  { kind: 'Ingress', from: /^annotations\.kubernetes\.io\/ingress\.class$/, to: 'metadata.annotations[kubernetes.io/ingress.class]' },
  // stringData is merged into data by the conversion: a key the caller wrote in stringData is pointed at there.
  {
    kind: 'Secret',
    from: /^data\[(.*)\]$/,
    to: 'stringData[$1]',
    when: (m, match) => typeof m.stringData === 'object' && m.stringData !== null && Object.hasOwn(m.stringData, match[1]!),
  },
  // A key missing from a Secret written as stringData alone is missing there.
  {
    kind: 'Secret',
    from: /^data\[(.*)\]$/,
    to: 'stringData[$1]',
    when: (m) => m.data === undefined && m.stringData !== undefined,
  },
  { kind: 'Service', from: /^spec\.LoadBalancerSourceRanges(?=\[|$)/, to: 'spec.loadBalancerSourceRanges' },
  { kind: 'ConfigMap', from: /^\[\]$/, to: 'data' },
  // What Go reports at the internal CRD's spec-level members is the caller's versions[0] (every version holds it alike).
  {
    kind: 'CustomResourceDefinition',
    from: /^spec\.(subresources|additionalPrinterColumns|selectableFields)(?=[.[]|$)/,
    to: 'spec.versions[0].$1',
  },
  { kind: 'CustomResourceDefinition', from: /^spec\.version$/, to: 'spec.versions[0].name' },
  {
    kind: 'CustomResourceDefinition',
    from: /^spec\.conversion\.webhookClientConfig(?=[.[]|$)/,
    to: 'spec.conversion.webhook.clientConfig',
  },
  {
    kind: 'CustomResourceDefinition',
    from: /^spec\.conversion\.conversionReviewVersions(?=[.[]|$)/,
    to: 'spec.conversion.webhook.conversionReviewVersions',
  },
  { kind: 'CustomResourceDefinition', from: /^status\.storedVersions.*$/, to: 'spec.versions' },
  { kind: 'PersistentVolumeClaim', from: /^spec\.resources\[storage\]$/, to: 'spec.resources.requests[storage]' },
  { kind: 'PersistentVolume', from: /^spec\.persistentDisk(?=\.|$)/, to: 'spec.gcePersistentDisk' },
  { kind: 'PersistentVolume', from: /^spec\.cephFS$/, to: 'spec.cephfs' },
  { kind: 'PersistentVolume', from: /^spec\.iscsi\.targetportal$/, to: 'spec.iscsi.targetPortal' },
  { kind: 'PersistentVolume', from: /^spec\.iscsi\.initiatorname$/, to: 'spec.iscsi.initiatorName' },
];

const tokens = (pointer: string) =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));

/**
 * A field of the oracle, for a manifest of `kind`, as a pointer to the manifest's member; Go's nil
 * path (`<nil>`: CEL's "some validation rules were not checked") is the object itself.
 */
export function oraclePointer(field: string, kind?: string, manifest: Manifest = {}): string {
  if (field === '<nil>') return '';
  for (const relocation of RELOCATIONS) {
    const match = relocation.kind === kind ? relocation.from.exec(field) : null;
    if (match !== null && (relocation.when?.(manifest, match) ?? true))
      return goPathToPointer(field.replace(relocation.from, relocation.to));
  }
  return goPathToPointer(field);
}

/**
 * What two pointers are compared by: their tokens joined by dots. Go's path does not say where a
 * child's name with dots ends (Child("kubernetes.io/ingress.class") prints
 * `annotations.kubernetes.io/ingress.class`), so a pointer read from it cannot split that name right.
 */
export const comparable = (pointer: string) => tokens(pointer).join('.').replace(VERSION_SCHEMA, 'spec.versions.*.schema.openAPIV3Schema');

/**
 * A CRD's version schema, wherever it is reported: Go reports a schema that every version shares
 * once, at its internal `spec.validation`; facetform at each version that has it. The schema's
 * inside is compared, not which version's.
 */
const VERSION_SCHEMA = /^spec\.(versions\.\d+\.schema|validation)\.openAPIV3Schema(?=\.|$)/;

/** CEL's `<nil>` error only says other errors stopped the rules: a summary beside them, not a place. */
const placedErrors = (oracle: OracleVerdict): OracleVerdict => {
  const placed = oracle.errors.filter((error) => error.field !== '<nil>');
  return placed.length > 0 && placed.length < oracle.errors.length ? { ...oracle, errors: placed } : oracle;
};

export function compare(check: OurCheck, manifest: unknown, judged: OracleVerdict): Comparison {
  const oracle = placedErrors(judged);
  const ours = check.problems(manifest);
  const ourRefuses = ours.length > 0;
  const oracleRefuses = oracle.verdict === 'refuse';
  const decodeError = oracle.decodeError !== undefined;
  const kind = (manifest as { kind?: string } | null)?.kind;
  const oraclePointers = distinctSorted(oracle.errors.map((error) => oraclePointer(error.field, kind, manifest as Manifest)));
  const ourPointers = distinctSorted(ours.map((problem) => problem.pointer));
  const nativeOnly = !decodeError && oracleRefuses && oracle.errors.length > 0 && !check.schemaRefuses(manifest);
  const base = { oracleRefuses, ourRefuses, decodeError, nativeOnly, ours, oraclePointers, ourPointers, messageDiffs: [] };
  if (ourRefuses !== oracleRefuses) return { ...base, agree: false, reason: 'verdict' };
  if (!nativeOnly) return { ...base, agree: true };
  if (!sameSet(distinctSorted(ourPointers.map(comparable)), distinctSorted(oraclePointers.map(comparable))))
    return { ...base, agree: false, reason: 'pointers' };
  const messageDiffs: Comparison['messageDiffs'] = [];
  for (const pointer of oraclePointers) {
    const theirs = distinctSorted(
      oracle.errors
        .filter((error) => oraclePointer(error.field, kind, manifest as Manifest) === pointer)
        .map((error) => withoutAddresses(error.message)),
    );
    const mine = distinctSorted(
      ours.filter((problem) => comparable(problem.pointer) === comparable(pointer)).map((problem) => withoutAddresses(problem.detail)),
    );
    if (!sameSet(theirs, mine)) messageDiffs.push({ pointer, ours: mine, oracle: theirs });
  }
  return { ...base, agree: true, messageDiffs };
}

/** One judged manifest, with what the report says of it. */
export interface Judged {
  kind: string;
  /** Where it came from: `test/vectors/Service.jsonl:12`, or the seed and index of a run. */
  where: string;
  rule: string;
  manifest: unknown;
  oracle: OracleVerdict;
  comparison: Comparison;
}
