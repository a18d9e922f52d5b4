/**
 * The `metadata` of a custom resource is a Kubernetes ObjectMeta like any built-in kind's, so its
 * schema is taken from a built-in kind's generated schema (same generator, same validator-probed
 * formats), not written again: from a kind the build has generated anyway when there is one, or
 * from PriorityClass, the smallest API group whose declarations include ObjectMeta (about 3 s).
 */
import { referencedDefinitions } from '../kubernetes/kind-definitions.js';
import { KubeTypes } from '../kubernetes/kube-types.js';
import type { KindSchema, Schema } from '../kubernetes/kind-schema.js';

export const OBJECT_META = 'ObjectMeta';

/** ObjectMeta and the definitions it refers to (Time, ManagedFieldsEntry, OwnerReference …), from a built-in kind's schema. */
export function objectMetaFrom(kind: KindSchema): Record<string, Schema> | undefined {
  if (kind.definitions[OBJECT_META] === undefined) return undefined;
  const names = referencedDefinitions({ $ref: `#/definitions/${OBJECT_META}` }, kind.definitions);
  return Object.fromEntries([...names].sort().map((name) => [name, kind.definitions[name]!]));
}

let generated: Record<string, Schema> | undefined;

/** ObjectMeta's definitions generated once per process, for when no built-in kind was generated. */
export function objectMetaDefinitions(): Record<string, Schema> {
  if (generated === undefined) {
    const kind = KubeTypes.shared()
      .add([{ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass' }])
      .kindSchema('scheduling.k8s.io/v1', 'PriorityClass');
    const found = kind === undefined ? undefined : objectMetaFrom(kind);
    if (found === undefined) throw new Error('kubernetes-models has no ObjectMeta for scheduling.k8s.io/v1 PriorityClass');
    generated = found;
  }
  return generated;
}
