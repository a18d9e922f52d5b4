/**
 * The rule for a built-in kind whose API-server rules are not ported: its answers are checked by
 * its OpenAPI schema alone, so a manifest the API server refuses (a name like `Web_1`, a selector
 * that misses the template's labels) still answers 200. Lint says so once, at the collection's kind.
 */
import { builtInRules } from '../../apiserver/kinds.js';
import type { LintReport } from '../report.js';
import type { TypedCollection } from './kind-typing.js';

/** Kubernetes' package of a group's validation: `apps` → pkg/apis/apps, `networking.k8s.io` → pkg/apis/networking. */
const validationPackage = (apiVersion: string): string => {
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  return `pkg/apis/${group === '' ? 'core' : group.split('.')[0]}/validation`;
};

export function lintUnportedKind({ model, typing }: TypedCollection, report: LintReport): void {
  // A custom resource is judged by its CRD (by: 'crd'); an untyped kind is already said to be unchecked.
  if (typing.by !== 'kubernetes') return;
  const { apiVersion, kind } = model.declaration as { kind: string; apiVersion: string };
  if (builtInRules(apiVersion, kind) !== undefined) return;
  report.warning(
    model.source.file,
    ['kind'],
    `${apiVersion} ${kind}: the API server's own validation (beyond its OpenAPI schema) is not ported; ` +
      `its name, labels, annotations and the rules of ${validationPackage(apiVersion)} go unchecked, ` +
      'so an answer of 200 may still be refused by kubectl apply',
    'judge its manifests with `kubectl apply --dry-run=server` until its rules are ported; ' +
      'docs/authoring.md#kinds-judged-as-the-api-server-judges-them lists the kinds that are',
  );
}
