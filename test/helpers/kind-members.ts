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

/** The kind's writable members: top-level ones, and spec's members in place of spec, sorted. */
export function writableMembers(apiVersion: string, kind: string): string[] {
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

/**
 * The members of which a manifest may set one at most: a PersistentVolume's volume sources (spec
 * members typed `…VolumeSource`; core/validation: "may not specify more than 1 volume type").
 */
export function oneOfMembers(apiVersion: string, kind: string): string[] {
  const schema = KubeTypes.shared().add([{ apiVersion, kind }]).kindSchema(apiVersion, kind)!;
  const root = resolve(schema.definitions[kind]!, schema.definitions);
  const spec = (root.properties as Record<string, Schema> | undefined)?.spec;
  if (spec === undefined) return [];
  return Object.entries((resolve(spec, schema.definitions).properties ?? {}) as Record<string, Schema>)
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
