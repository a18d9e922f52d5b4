/** What the CEL rule tests share: a rule's detail as the API server words it, and rules run on a minimal manifest. */
import { CelRules } from '../../src/crd/cel-rules.js';

/** A failed rule's detail as the API server words it: the value shown is the `type` of the schema node declaring the rule. */
export const invalid = (type: string, message: string) => `Invalid value: "${type}": ${message}`;
/** The detail of a failed rule with reason FieldValueForbidden. */
export const forbidden = (message: string) => `Forbidden: ${message}`;
/** A root schema with `spec` holding the given properties and rules. */
export const specWith = (properties: Record<string, unknown>, rules: unknown[], required: string[] = []) => ({
  type: 'object',
  properties: { spec: { type: 'object', properties, required, 'x-kubernetes-validations': rules } },
});
export const manifest = (spec: unknown) =>
  spec === undefined
    ? { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n' } }
    : { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n' }, spec };
export const check = (schema: Record<string, unknown>, spec: unknown) => CelRules.compile(schema as never).check(manifest(spec));
/** The transition rules `after` fails as an update of `before` (each the manifest's spec; undefined: no spec). */
export const transition = (schema: Record<string, unknown>, before: unknown, after: unknown) =>
  CelRules.compile(schema as never).checkTransition(manifest(before), manifest(after));
