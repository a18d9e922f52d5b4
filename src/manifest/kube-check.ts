/**
 * Checks a rendered manifest the way the API server would (CONTRACT §5): a built-in kind with its
 * validator from `kubernetes-models` (the official OpenAPI compiled by ajv), a custom resource with
 * its CRD's schema and x-kubernetes-validations rules (parts the CRD layer compiles:
 * crd/crd-check.ts), each compiled once per kind; then, on what the schema takes, the API server's
 * own validation of the kind (src/apiserver).
 */
import type { ErrorObject } from 'ajv';
import { createErrors } from '../apiserver/registry/create.js';
import type { KindRules } from '../apiserver/registry/kind-rules.js';
import { builtInRules } from '../apiserver/kinds.js';
import { distinctProblems, type Problem } from '../request/problems.js';
import { lookup } from '../request/resolve.js';
import { formatShape, groupInto, problemsOf } from '../schema/input-validator.js';
import type { SchemaDefaults } from '../schema/structural-defaults.js';
import type { NullPruning } from '../schema/structural-nulls.js';
import { fromPointer } from '../util/json.js';
import { type KindValidator, kubeModel } from '../kubernetes/kube-models.js';
import type { SkippedRule, TransitionRule, TransitionRules } from './transition-rules.js';

/** What a check runs: the kind's schema, and for a CRD what it says beyond it. */
export interface CheckParts {
  validate: KindValidator;
  /** What a CRD says beyond its JSON Schema: CEL rules, keys of keyed lists. */
  beyondSchema: ReadonlyArray<{ check(manifest: unknown): Problem[] }>;
  /** A CRD's CEL rules, whose transition rules judge an update. */
  celRules?: TransitionRules;
  /** The API server's own rules, run on a manifest its schema takes (a decode error stops the API server first). */
  apiServer?: KindRules;
  /**
   * A built-in kind whose rules are ported: the API server decodes it with Go's decoder, not its
   * OpenAPI schema, so the schema is read as that decoder reads it: a null member is the zero
   * value (unset), and an `enum` only documents, the kind's own rules refusing the values Go
   * refuses. Off for a kind whose rules are not ported, whose schema's enum is then the only check
   * of those values; off for a custom resource, whose schema the API server does enforce.
   */
  decodedByGo?: boolean;
  /** What the API server does to a custom resource before it judges it: drops nulls its schema does not allow, fills in defaults. */
  nulls?: NullPruning;
  defaults?: SchemaDefaults;
}

export class ManifestCheck {
  private parts: CheckParts | undefined;

  private constructor(private readonly make: () => CheckParts) {}

  /**
   * The check of one kind, or undefined when kubernetes-models has no model for it. Registering a
   * kind's rules in src/apiserver/kinds.ts is what switches `decodedByGo` on for it (see the list
   * there of everything a new kind needs).
   */
  static forKind(apiVersion: string, kind: string): ManifestCheck | undefined {
    const model = kubeModel(apiVersion, kind);
    if (model === undefined) return undefined;
    return new ManifestCheck(() => {
      const apiServer = builtInRules(apiVersion, kind);
      return { validate: model.validate, beyondSchema: [], apiServer, decodedByGo: apiServer !== undefined };
    });
  }

  /** A check of the given parts, made on first use (or by compile()): the CRD layer makes a custom resource's (crd/crd-check.ts). */
  static of(make: () => CheckParts): ManifestCheck {
    return new ManifestCheck(make);
  }

  /** The same check with `extra` beside what the kind's schema says, e.g. a CRD's version schemas. */
  alongside(extra: { check(manifest: unknown): Problem[] }): ManifestCheck {
    return new ManifestCheck(() => {
      const parts = this.make();
      return { ...parts, beyondSchema: [...parts.beyondSchema, extra] };
    });
  }

  /** Compiles now rather than on the first check, e.g. to fail early on a broken schema. */
  compile(): this {
    this.parts ??= this.make();
    return this;
  }

  private get compiled(): CheckParts {
    return this.compile().parts!;
  }

  /**
   * Every violation, each with a JSON Pointer into the manifest; none for a valid manifest.
   * `partial`: some values did not render, so the API server's own rules, which would only say
   * again that their members are missing, are not run.
   */
  problems(written: unknown, partial = false): Problem[] {
    const { validate, beyondSchema, decodedByGo, nulls, defaults } = this.compiled;
    const pruned = nulls === undefined ? written : nulls.apply(written);
    const manifest = defaults === undefined ? pruned : defaults.apply(pruned);
    const apiServer = partial ? undefined : this.compiled.apiServer;
    let errors = validate(manifest) as ErrorObject[];
    // The API server reads a built-in kind with Go's decoder, not its OpenAPI schema: null is the
    // member's zero value (unset, CONTRACT §5), and an enum is documentation; the kind's own
    // rules refuse the values the API server refuses (`Unsupported value`), after its defaults.
    if (decodedByGo && errors.length > 0)
      errors = errors.filter((error) => error.keyword !== 'enum' && lookup(manifest, fromPointer(error.instancePath)) !== null);
    if (errors.length === 0 && beyondSchema.length === 0) return apiServer === undefined ? [] : apiServerProblems(apiServer, manifest);
    // The validators are compiled per definition, so a union's branch errors cannot be told from
    // the union by schema path: where a union failed, its branches' types and formats say it at once.
    const atPath = new Map<string, ErrorObject[]>();
    for (const error of errors) groupInto(atPath, error.instancePath, error);
    const isUnion = (group: ErrorObject[]) => group.some((error) => error.keyword === 'oneOf' || error.keyword === 'anyOf');
    // A `not` inside a branch only tells the branches apart (Gateway API: `type` is not IPAddress):
    // the API server names the branch that came closest, never the discriminator of another.
    const discriminator = (error: ErrorObject) => error.keyword === 'not' && /\/(oneOf|anyOf)\/\d+\//.test(error.schemaPath);
    const problems = problemsOf(
      errors.filter((error) => !isUnion(atPath.get(error.instancePath)!) && !discriminator(error)),
      '',
    );
    for (const [instancePath, group] of atPath) {
      if (!isUnion(group)) continue;
      // A branch that has the right type but not the format says it by its format: "integer or string", "number or a quantity".
      const types = new Set(group.filter((error) => error.keyword === 'type').map((error) => String(error.params.type)));
      const formatOfFailedType = (format: string) => types.has(/^(int32|int64)$/.test(format) ? 'integer' : 'string');
      const shapes = [
        ...types,
        ...group
          .filter((error) => error.keyword === 'format' && !formatOfFailedType(String(error.params.format)))
          .map((error) => formatShape(String(error.params.format))),
      ];
      problems.push({
        pointer: instancePath,
        detail: shapes.length > 0 ? `must be ${[...new Set(shapes)].join(' or ')}` : 'must match one of the allowed shapes',
      });
    }
    // A rule's `message` is its problem's detail, as the API server says it.
    for (const check of beyondSchema) for (const { pointer, detail } of check.check(manifest)) problems.push({ pointer, detail });
    // The API server lists its own rules' errors beside a CRD's schema and CEL errors.
    if (errors.length === 0 && apiServer !== undefined) problems.push(...apiServerProblems(apiServer, manifest));
    return distinctProblems(problems);
  }

  /** A CRD's transition rules, where they point: what an update may not change beyond the schema. */
  get transitionRules(): readonly TransitionRule[] {
    return this.compiled.celRules?.transitionRules ?? [];
  }

  /** A CRD's transition rules this library cannot run: an update may break them unseen. */
  get uncheckedTransitionRules(): readonly SkippedRule[] {
    return this.compiled.celRules?.skipped.filter((rule) => rule.transition) ?? [];
  }

  /** What an update from `before` to `after` breaks beyond the schema: a CRD's transition rules; none for built-in kinds. */
  transitionProblems(before: unknown, after: unknown): Problem[] {
    const { celRules } = this.compiled;
    if (celRules === undefined) return [];
    // As in problems(): a rule's message is the detail, pointed into `after`.
    return distinctProblems(celRules.checkTransition(before, after).map(({ pointer, detail }) => ({ pointer, detail })));
  }
}

/** The API server's field errors as problems: the field's place in the manifest, Go's words. */
function apiServerProblems(rules: KindRules, manifest: unknown): Problem[] {
  const errors = createErrors(rules, manifest);
  // Most manifests pass: no lists or maps are made for them.
  if (errors.length === 0) return NO_PROBLEMS;
  return distinctProblems(errors.map((error) => ({ pointer: error.path.pointer(), detail: error.body })));
}

const NO_PROBLEMS: Problem[] = Object.freeze([]) as unknown as Problem[];

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
