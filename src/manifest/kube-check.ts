/**
 * Checks a rendered manifest the way the API server's schema would (CONTRACT §5), with the kind's
 * validator from `kubernetes-models` (the official OpenAPI compiled by ajv), found once per kind.
 * Kinds it does not know (custom resources) are not checked here.
 */
import type { ErrorObject } from 'ajv';
import { distinctProblems, type Problem } from '../render/render-error.js';
import { formatShape, groupInto, problemsOf } from '../schema/input-validator.js';
import { type KindValidator, kubeModel } from './kube-models.js';

export class ManifestCheck {
  private constructor(private readonly validate: KindValidator) {}

  /** The check of one kind, or undefined when kubernetes-models has no model for it. */
  static forKind(apiVersion: string, kind: string): ManifestCheck | undefined {
    const model = kubeModel(apiVersion, kind);
    return model === undefined ? undefined : new ManifestCheck(model.validate);
  }

  /** Every violation, each with a JSON Pointer into the manifest; none for a valid manifest. */
  problems(manifest: unknown): Problem[] {
    const errors = this.validate(manifest) as ErrorObject[];
    if (errors.length === 0) return [];
    // The validators are compiled per definition, so a union's branch errors cannot be told from
    // the union by schema path: where a union failed, its branches' types and formats say it at once.
    const atPath = new Map<string, ErrorObject[]>();
    for (const error of errors) groupInto(atPath, error.instancePath, error);
    const isUnion = (group: ErrorObject[]) => group.some((error) => error.keyword === 'oneOf' || error.keyword === 'anyOf');
    const problems = problemsOf(
      errors.filter((error) => !isUnion(atPath.get(error.instancePath)!)),
      '',
    );
    for (const [instancePath, group] of atPath) {
      if (!isUnion(group)) continue;
      // A branch that has the right type but not the format says it by its format: "integer or string", "number or a quantity".
      const types = new Set(group.filter((error) => error.keyword === 'type').map((error) => String(error.params.type)));
      const formatOfFailedType = (format: string) => types.has(/^(int32|int64)$/.test(format) ? 'integer' : 'string');
      const shapes = [...types, ...group.filter((error) => error.keyword === 'format' && !formatOfFailedType(String(error.params.format))).map((error) => formatShape(String(error.params.format)))];
      problems.push({ pointer: instancePath, detail: shapes.length > 0 ? `must be ${[...new Set(shapes)].join(' or ')}` : 'must match one of the allowed shapes' });
    }
    return distinctProblems(problems);
  }
}

export interface KubeCheck {
  /** False when kubernetes-models has no model for the kind. */
  checked: boolean;
  errors: string[];
}

/** A manifest of any kind checked on its own, for the CLI and tests: `pointer detail` lines. */
export function checkManifest(manifest: { apiVersion?: unknown; kind?: unknown }): KubeCheck {
  if (typeof manifest.apiVersion !== 'string' || typeof manifest.kind !== 'string') {
    return { checked: true, errors: ['apiVersion and kind must be strings'] };
  }
  const check = ManifestCheck.forKind(manifest.apiVersion, manifest.kind);
  if (check === undefined) return { checked: false, errors: [] };
  return { checked: true, errors: check.problems(manifest).map((problem) => `${problem.pointer || '/'} ${problem.detail}`) };
}
