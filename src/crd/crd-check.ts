/**
 * The manifest checks the CRD layer makes. A built-in kind as a collection renders it: a
 * CustomResourceDefinition's version schemas are judged too (structural, no default the API server
 * would prune, CEL rules that compile), since ValidateCustomResourceDefinition refuses a CRD for
 * them; the rest of its rules are the API server's (src/apiserver). A custom resource: its CRD's
 * schema, CEL rules and keyed lists. Here, not in manifest/: the schema rules are the CRD layer's,
 * and the kind check below runs them as parts it is given.
 */
import { customResourceRules } from '../apiserver/kinds.js';
import type { Schema } from '../kubernetes/kind-schema.js';
import type { KindValidator } from '../kubernetes/kube-models.js';
import { ManifestCheck } from '../manifest/kube-check.js';
import type { Problem } from '../request/problems.js';
import { InputValidator } from '../schema/input-validator.js';
import { SchemaDefaults } from '../schema/structural-defaults.js';
import { NullPruning } from '../schema/structural-nulls.js';
import { isPlainObject, type JsonObject, toPointer } from '../util/json.js';
import { CelRules } from './cel-rules.js';
import { CRD_API_VERSION, CRD_KIND } from './crd.js';
import { ListMapKeys } from './list-map-keys.js';
import { structuralProblems } from './structural.js';

/** What a bundle keeps of a custom resource's CRD, for the server to check every answer. */
export interface CustomResourceSchema {
  /** The CRD's name, e.g. `databases.platform.example.com`. */
  crd: string;
  version: string;
  /** The kind as JSON Schema (root definition named after the kind), made from the CRD by the build. */
  definitions: Record<string, Schema>;
  /** The version's openAPIV3Schema as the CRD has it: where its CEL rules live. */
  openAPIV3Schema: JsonObject;
  /** The CRD's scope; bundles built before it was kept are read as Namespaced. */
  scope?: 'Namespaced' | 'Cluster';
}

/** What the version schemas of a rendered CRD break. */
function versionSchemaProblems(manifest: unknown): Problem[] {
  const spec = isPlainObject(manifest) && isPlainObject(manifest.spec) ? manifest.spec : {};
  if (!Array.isArray(spec.versions)) return [];
  return spec.versions.flatMap((version, index) => {
    const schema = isPlainObject(version) && isPlainObject(version.schema) ? version.schema.openAPIV3Schema : undefined;
    if (!isPlainObject(schema)) return [];
    const pointer = toPointer(['spec', 'versions', index, 'schema', 'openAPIV3Schema']);
    // CEL rules are compiled too, as the API server compiles them when it takes the CRD (a CRD
    // collection's answers pay for it: they are few).
    const problems = [...structuralProblems(schema, pointer), ...celProblems(schema as JsonObject, pointer)];
    return problems.map((problem) => ({ pointer: problem.pointer, detail: problem.message }));
  });
}

/** CEL rules that do not compile; a rule nested past what the compiler's stack holds is one (the API server's CEL caps nesting too). */
function celProblems(schema: JsonObject, pointer: string): Array<{ pointer: string; message: string }> {
  try {
    return CelRules.compile(schema, pointer).problems;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return [{ pointer, message: 'an x-kubernetes-validations rule is nested too deeply to compile' }];
  }
}

export function builtInKindCheck(apiVersion: string, kind: string): ManifestCheck | undefined {
  const check = ManifestCheck.forKind(apiVersion, kind);
  if (check === undefined || apiVersion !== CRD_API_VERSION || kind !== CRD_KIND) return check;
  return check.alongside({ check: versionSchemaProblems });
}

/**
 * The check of a custom resource: its CRD's schema, its CEL rules (those a create can check;
 * transition rules for an update) and the keys of its keyed lists. Compiled on first use (or by
 * compile()): a server starts without loading CEL or compiling every CRD its bundles hold.
 */
export function customResourceCheck(kind: string, resource: CustomResourceSchema): ManifestCheck {
  return ManifestCheck.of(() => {
    const schema = { $ref: `#/definitions/${kind}`, definitions: withoutNumberFormats(resource.definitions) };
    const validate = new InputValidator(schema).compile();
    const celRules = CelRules.compile(resource.openAPIV3Schema);
    return {
      nulls: NullPruning.compile(schema, schema.definitions),
      defaults: SchemaDefaults.compile(schema, schema.definitions),
      validate: (manifest) => (validate(manifest) ? [] : ((validate.errors ?? []) as ReturnType<KindValidator>)),
      beyondSchema: [celRules, ListMapKeys.compile(resource.openAPIV3Schema)],
      celRules,
      apiServer: customResourceRules(resource.scope !== 'Cluster'),
    };
  });
}

/**
 * A CRD's schema as the API server validates custom resources with it: kube-openapi checks the
 * format of strings only, so `format: int32` on an integer is documentation there (an answer of
 * 2147483648 is taken).
 */
function withoutNumberFormats<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(withoutNumberFormats) as T;
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  const numeric = (schema as Record<string, unknown>).type === 'integer' || (schema as Record<string, unknown>).type === 'number';
  for (const [key, value] of Object.entries(schema)) if (!(numeric && key === 'format')) copy[key] = withoutNumberFormats(value);
  return copy as T;
}
