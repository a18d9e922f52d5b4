/**
 * What a user writes of a built-in kind, read from its type in kubernetes-models: the top-level
 * members and the members of spec (apiVersion, kind, metadata and status aside), as dotted paths.
 */
import { kubeModel } from '../../src/kubernetes/kube-models.js';
import { KubeTypes } from '../../src/kubernetes/kube-types.js';
import type { Schema } from '../../src/kubernetes/kind-schema.js';

/** Members the API server sets, or every manifest has, which no feature writes. */
const NOT_WRITTEN = new Set(['apiVersion', 'kind', 'metadata', 'status']);

/** Whether kubernetes-models types the kind (a custom resource has its CRD's checks instead). */
export const isBuiltInKind = (apiVersion: string, kind: string): boolean => kubeModel(apiVersion, kind) !== undefined;

const resolve = (schema: Schema, definitions: Record<string, Schema>): Schema =>
  typeof schema.$ref === 'string' ? resolve(definitions[schema.$ref.replace('#/definitions/', '')]!, definitions) : schema;

/** The members of the kind's type and of its spec (none without one), each with its schema. */
function kindMembers(apiVersion: string, kind: string): { top: Record<string, Schema>; spec: Record<string, Schema> } {
  const schema = KubeTypes.shared().add([{ apiVersion, kind }]).kindSchema(apiVersion, kind)!;
  const members = (node: Schema) => (node.properties ?? {}) as Record<string, Schema>;
  const top = members(resolve(schema.definitions[kind]!, schema.definitions));
  return { top, spec: top.spec === undefined ? {} : members(resolve(top.spec, schema.definitions)) };
}

/** The kind's writable members: top-level ones, and spec's members in place of spec, sorted. */
export function writableMembers(apiVersion: string, kind: string): string[] {
  const { top, spec } = kindMembers(apiVersion, kind);
  return Object.keys(top)
    .filter((member) => !NOT_WRITTEN.has(member))
    .flatMap((member) => (member === 'spec' ? Object.keys(spec).map((child) => `spec.${child}`) : [member]))
    .sort();
}

/**
 * The members of which a manifest may set one at most: a PersistentVolume's volume sources (spec
 * members typed `…VolumeSource`; core/validation: "may not specify more than 1 volume type").
 */
export function oneOfMembers(apiVersion: string, kind: string): string[] {
  return Object.entries(kindMembers(apiVersion, kind).spec)
    .filter(([, member]) => typeof member.$ref === 'string' && member.$ref.endsWith('VolumeSource'))
    .map(([name]) => `spec.${name}`)
    .sort();
}

/** Whether `value` holds `member` (a dotted path), as a value or an object below it. */
export function holds(value: unknown, member: string): boolean {
  let node = value;
  for (const segment of member.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return false;
    node = (node as Record<string, unknown>)[segment];
  }
  return true;
}
