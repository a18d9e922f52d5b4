/** A manifest judged against a kind schema by ajv alone, set up as the product sets it up: what the CRD schema tests compare. */
import { Ajv, type ErrorObject } from 'ajv';
import type { KindSchema } from '../../src/kubernetes/kind-schema.js';
import { kubernetesFormats } from '../../src/kubernetes/kube-formats.js';
import { goRegExpEngine } from '../../src/schema/go-regexp.js';

// As the input validator and the manifest check set ajv up: Kubernetes' formats and patterns with Go's rules.
const ajv = new Ajv({
  allErrors: true,
  strict: false,
  allowUnionTypes: true,
  validateFormats: true,
  ownProperties: true,
  code: { regExp: goRegExpEngine },
});
for (const [name, format] of Object.entries(kubernetesFormats)) ajv.addFormat(name, format as never);
/** `pointer keyword` of each error of a manifest against the kind. */
export const errorsOf = (kindSchema: KindSchema, manifest: unknown): string[] => {
  const validate = ajv.compile({ $ref: `#/definitions/${kindSchema.kind}`, definitions: kindSchema.definitions });
  if (validate(manifest)) return [];
  return (validate.errors as ErrorObject[]).map(
    (error) => `${error.instancePath + (error.keyword === 'required' ? `/${String(error.params.missingProperty)}` : '')} ${error.keyword}`,
  );
};
