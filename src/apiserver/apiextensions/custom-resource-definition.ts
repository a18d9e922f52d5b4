/**
 * A CustomResourceDefinition (apiextensions.k8s.io/v1) as the API server takes it on create: the v1
 * defaults, the registry strategy's PrepareForCreate, then ValidateCustomResourceDefinition (Kubernetes
 * 1.33) on the internal type. The contents of each openAPIV3Schema (structural rules, CEL) are
 * src/crd's; everything else is here and in the custom-resource-definition-*.ts modules.
 */
import { type FieldError, FieldPath, GoSyntax, invalid, required } from '../apimachinery/field-error.js';
import { type Fields, copyOnWrite, isSet, list, object, string, strings, number } from '../golang/values.js';
import type { KindRules } from '../registry/kind-rules.js';
import { nameIsDNSSubdomain, type NameRule } from '../apimachinery/names.js';
import { validateObjectMeta } from '../apimachinery/object-meta.js';
import { fromPointer, isPlainObject } from '../../util/json.js';
import { type InternalVersion, toInternalSpec } from './custom-resource-definition-internal.js';
import { goToLower } from './custom-resource-definition-names.js';
import { validateSpec } from './custom-resource-definition-spec.js';
import { goParseRequestURI } from '../golang/url.js';

const API_APPROVED = 'api-approved.kubernetes.io';

/**
 * SetObjectDefaults_CustomResourceDefinition, then PrepareForCreate (status reset, generation 1).
 * Only the top level and metadata are the create step's copies: deeper objects are copied before
 * they are written.
 */
function defaults(manifest: Fields): Fields {
  const spec = copyOnWrite(manifest, 'spec');
  const names = copyOnWrite(spec, 'names');
  const kind = string(names.kind);
  if (string(names.singular) === '') names.singular = goToLower(kind);
  if (string(names.listKind) === '' && kind !== '') names.listKind = `${kind}List`;
  if (!isSet(spec.conversion)) spec.conversion = { strategy: 'None' };
  else if (isPlainObject(object(object(object(spec.conversion).webhook).clientConfig).service)) {
    const service = copyOnWrite(copyOnWrite(copyOnWrite(copyOnWrite(spec, 'conversion'), 'webhook'), 'clientConfig'), 'service');
    if (!isSet(service.port)) service.port = 443;
  }
  const storage = list(spec.versions)
    .map(object)
    .find((version) => version.storage === true);
  manifest.status = storage === undefined ? {} : { storedVersions: [string(storage.name)] };
  // PrepareForCreate sets the generation to 1; only a negative one would be judged otherwise.
  if (number(object(manifest.metadata).generation) < 0) copyOnWrite(manifest, 'metadata').generation = 1;
  return manifest;
}

function validate(manifest: Fields): FieldError[] {
  const spec = toInternalSpec(manifest.spec);
  const requiredName = `${string(spec.names.plural)}.${spec.group}`;
  const nameRule: NameRule = (name, prefix) => [
    ...nameIsDNSSubdomain(name, prefix),
    ...(name !== requiredName ? ['must be spec.names.plural+"."+spec.group'] : []),
  ];
  const errors = [...validateObjectMeta(manifest.metadata, false, nameRule)];
  errors.push(...validateSpec(spec, FieldPath.of('spec')));
  // status.acceptedNames is empty after PrepareForCreate: its name rules find nothing.
  errors.push(...validateStoredVersions(object(manifest.status).storedVersions, spec.versions, FieldPath.of('status', 'storedVersions')));
  errors.push(...validateAPIApproval(spec.group, object(object(manifest.metadata).annotations)));
  if (spec.preserveUnknownFields)
    errors.push(
      invalid(
        FieldPath.of('spec', 'preserveUnknownFields'),
        true,
        'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ),
    );
  // rest.BeforeCreate's own metadata check (path segment names) accepts every DNS subdomain: nothing to add.
  return errors.map(locatedInV1);
}

/**
 * Where the internal type's members are in the v1 object a caller writes: Go reports what every
 * version holds alike at the spec (spec.validation …), the webhook under internal names, and the
 * stored versions the storage flags decide. Go's path is kept; the pointer names the caller's member.
 */
const V1_LOCATIONS: ReadonlyArray<[RegExp, string]> = [
  [/^\/spec\/validation(?=\/|$)/, '/spec/versions/0/schema'],
  [/^\/spec\/(subresources|additionalPrinterColumns|selectableFields)(?=\/|$)/, '/spec/versions/0/$1'],
  [/^\/spec\/version$/, '/spec/versions/0/name'],
  [/^\/spec\/conversion\/webhookClientConfig(?=\/|$)/, '/spec/conversion/webhook/clientConfig'],
  [/^\/spec\/conversion\/conversionReviewVersions(?=\/|$)/, '/spec/conversion/webhook/conversionReviewVersions'],
  [/^\/status\/storedVersions(?=\/|$).*/, '/spec/versions'],
];

function locatedInV1(error: FieldError): FieldError {
  const pointer = error.path.pointer();
  const found = V1_LOCATIONS.find(([from]) => from.test(pointer));
  if (found === undefined) return error;
  return { ...error, path: error.path.locatedAt(FieldPath.of(...fromPointer(pointer.replace(found[0], found[1])))) };
}

/** ValidateCustomResourceDefinitionStoredVersions: PrepareForCreate stored the first storage version only. */
function validateStoredVersions(value: unknown, versions: InternalVersion[], path: FieldPath): FieldError[] {
  const stored = strings(value);
  // PrepareForCreate leaves a nil slice when no version is stored.
  const shown = stored.length === 0 ? new GoSyntax('[]string(nil)') : stored;
  if (stored.length === 0) return [invalid(path, shown, 'must have at least one stored version')];
  const errors: FieldError[] = [];
  const remaining = new Map(stored.map((name, i) => [name, i]));
  for (const version of versions) {
    const found = remaining.has(version.name);
    if (version.storage && !found) errors.push(invalid(path, shown, `must have the storage version ${version.name}`));
    if (found) remaining.delete(version.name);
  }
  for (const [name, i] of remaining)
    errors.push(
      invalid(
        path.index(i),
        name,
        `missing from spec.versions; ${name} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${name} and removes ${name} from status.storedVersions`,
      ),
    );
  return errors;
}

/** validateAPIApproval: groups of the Kubernetes community need an approval annotation. */
function validateAPIApproval(group: string, annotations: Record<string, unknown>): FieldError[] {
  const isProtected = group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
  if (!isProtected) return [];
  const path = FieldPath.of('metadata', 'annotations').key(API_APPROVED);
  const annotation = string(annotations[API_APPROVED]);
  if (annotation === '')
    return [
      required(
        path,
        `protected groups must have approval annotation "${API_APPROVED}", see https://github.com/kubernetes/enhancements/pull/1111`,
      ),
    ];
  if (annotation.startsWith('unapproved')) return [];
  const url = goParseRequestURI(annotation);
  if (typeof url !== 'string' && url.host !== '' && url.scheme !== '') return [];
  return [
    invalid(
      path,
      annotation,
      `protected groups must have approval annotation "${API_APPROVED}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
    ),
  ];
}

export const customResourceDefinitionRules: KindRules = { namespaced: false, defaults, validate };
