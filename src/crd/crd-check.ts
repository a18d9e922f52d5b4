/**
 * The manifest check of a built-in kind as a collection renders it. A CustomResourceDefinition's
 * version schemas are judged too (structural, no default the API server would prune, CEL rules
 * that compile), since ValidateCustomResourceDefinition refuses a CRD for them; the rest of its
 * rules are the API server's (src/apiserver). Here, not in manifest/: the schema rules are the
 * CRD layer's.
 */
import { ManifestCheck } from '../manifest/kube-check.js';
import type { Problem } from '../request/problems.js';
import { isPlainObject, type JsonObject, toPointer } from '../util/json.js';
import { CelRules } from './cel-rules.js';
import { CRD_API_VERSION, CRD_KIND } from './crd.js';
import { structuralProblems } from './structural.js';

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
