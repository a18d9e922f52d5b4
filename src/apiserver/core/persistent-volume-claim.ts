/**
 * A PersistentVolumeClaim as the API server judges it on create: SetDefaults_PersistentVolumeClaimSpec,
 * the strategy's PrepareForCreate with 1.33's gates (VolumeAttributesClass and
 * CrossNamespaceVolumeDataSource off, AnyVolumeDataSource on: which data sources are dropped or
 * copied), then core/validation ValidatePersistentVolumeClaim. The selector is
 * metav1's (../apimachinery/label-selector.ts).
 */
import { type FieldError, FieldPath, GoSyntax, invalid, invalidEach, notSupported, required } from '../apimachinery/field-error.js';
import { type Fields, copyOnWrite, has, isSet, object, string, strings } from '../golang/values.js';
import type { KindRules } from '../registry/kind-rules.js';
import { isDNS1123Subdomain, nameIsDNSLabel, nameIsDNSSubdomain } from '../apimachinery/names.js';
import { validateLabelSelector } from '../apimachinery/label-selector.js';
import { validateCoreObjectMeta } from './object-meta.js';
import { VOLUME_MODES, resourceList, validateAccessModes, validatePositiveQuantity } from './persistent-volume.js';

/** A typed reference with its apiGroup copied only where it is set: unset and "" differ to the match of dataSource and dataSourceRef. */
function reference(from: Fields): Fields {
  const copy: Fields = { kind: string(from.kind), name: string(from.name) };
  if (isSet(from.apiGroup)) copy.apiGroup = string(from.apiGroup);
  return copy;
}

/** pvcutil's dataSourceIsPvcOrSnapshot: the sources a claim took before AnyVolumeDataSource. */
function isClaimOrSnapshot(source: Fields): boolean {
  const group = string(source.apiGroup);
  return (
    (source.kind === 'PersistentVolumeClaim' && group === '') || (source.kind === 'VolumeSnapshot' && group === 'snapshot.storage.k8s.io')
  );
}

function defaults(manifest: Fields): Fields {
  const spec = copyOnWrite(manifest, 'spec');
  if (!isSet(spec.volumeMode)) spec.volumeMode = 'Filesystem';
  // PrepareForCreate: DropDisabledFields, EnforceDataSourceBackwardsCompatibility, NormalizeDataSources.
  spec.volumeAttributesClassName = undefined;
  if (isSet(spec.dataSourceRef) && string(object(spec.dataSourceRef).namespace) !== '') spec.dataSourceRef = undefined;
  if (!isSet(spec.dataSourceRef) && isSet(spec.dataSource) && !isClaimOrSnapshot(object(spec.dataSource))) spec.dataSource = undefined;
  if (isSet(spec.dataSource) && !isSet(spec.dataSourceRef)) spec.dataSourceRef = reference(object(spec.dataSource));
  else if (isSet(spec.dataSourceRef) && !isSet(spec.dataSource) && string(object(spec.dataSourceRef).namespace) === '')
    spec.dataSource = reference(object(spec.dataSourceRef));
  return manifest;
}

/** validateDataSource and validateDataSourceRef: the same rules, and a namespace for the latter. */
function validateDataSource(source: Fields, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (string(source.name) === '') errors.push(required(path.child('name')));
  if (string(source.kind) === '') errors.push(required(path.child('kind')));
  const group = string(source.apiGroup);
  if (group === '' && string(source.kind) !== 'PersistentVolumeClaim')
    errors.push(invalid(path, string(source.kind), "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  if (group !== '') errors.push(...invalidEach(path.child('apiGroup'), group, isDNS1123Subdomain(group)));
  const namespace = string(source.namespace);
  if (namespace !== '') errors.push(...invalidEach(path.child('namespace'), namespace, nameIsDNSLabel(namespace, false)));
  return errors;
}

/** The field.Path Go passes as a bad value: %#v prints its struct, the parent by an address of the runtime's. */
const pathGoSyntax = (name: string): GoSyntax => new GoSyntax(`field.Path{name:"${name}", index:"", parent:(*field.Path)(0xc000012345)}`);

function validateDataSources(spec: Fields, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const [source, sourceRef] = [object(spec.dataSource), object(spec.dataSourceRef)];
  if (isSet(spec.dataSource)) errors.push(...validateDataSource({ ...source, namespace: undefined }, path.child('dataSource')));
  if (isSet(spec.dataSourceRef)) errors.push(...validateDataSource(sourceRef, path.child('dataSourceRef')));
  if (isSet(spec.dataSourceRef) && string(sourceRef.namespace) !== '') {
    if (isSet(spec.dataSource))
      errors.push(invalid(path, pathGoSyntax('dataSource'), 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (isSet(spec.dataSource) && isSet(spec.dataSourceRef)) {
    const sameGroup = isSet(source.apiGroup) === isSet(sourceRef.apiGroup) && string(source.apiGroup) === string(sourceRef.apiGroup);
    if (!sameGroup || string(source.kind) !== string(sourceRef.kind) || string(source.name) !== string(sourceRef.name))
      errors.push(invalid(path, pathGoSyntax('dataSource'), 'must match dataSourceRef'));
  }
  return errors;
}

function validateSpec(spec: Fields, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const modes = strings(spec.accessModes);
  if (modes.length === 0) errors.push(required(path.child('accessModes'), 'at least 1 access mode is required'));
  if (isSet(spec.selector)) errors.push(...validateLabelSelector(object(spec.selector), path.child('selector')));
  errors.push(...validateAccessModes(modes, path.child('accessModes')));
  const requests = object(spec.resources).requests;
  // Go's path skips `requests`; the problem points where the member is.
  const storagePath = path
    .child('resources')
    .key('storage')
    .locatedAt(path.child('resources', 'requests', 'storage'));
  const storage = resourceList(requests).find(([name]) => name === 'storage');
  if (!has(requests, 'storage') || storage === undefined) errors.push(required(storagePath));
  // ValidateResourceQuantityValue, which follows for a positive value, has nothing to add for storage.
  else errors.push(...validatePositiveQuantity(storage[1], storagePath));
  const className = string(spec.storageClassName);
  if (className !== '') errors.push(...invalidEach(path.child('storageClassName'), className, nameIsDNSSubdomain(className, false)));
  if (isSet(spec.volumeMode) && !VOLUME_MODES.includes(string(spec.volumeMode)))
    errors.push(notSupported(path.child('volumeMode'), string(spec.volumeMode), VOLUME_MODES));
  return [...errors, ...validateDataSources(spec, path)];
}

function validate(manifest: Fields): FieldError[] {
  return [
    ...validateCoreObjectMeta(manifest.metadata, true, nameIsDNSSubdomain),
    ...validateSpec(object(manifest.spec), FieldPath.of('spec')),
  ];
}

export const persistentVolumeClaimRules: KindRules = { namespaced: true, defaults, validate };
