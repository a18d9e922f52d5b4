/**
 * A PersistentVolume as the API server judges it on create: SetDefaults_PersistentVolume and its
 * sources' defaults, the capacity rounded up to milli units (SetDefaults_ResourceList), then
 * core/validation ValidatePersistentVolume (with VolumeAttributesClass off, as 1.33 ships it, so
 * PrepareForCreate drops volumeAttributesClassName) and pkg/volume/validation's mount-options
 * rule. Also what a PersistentVolumeClaim and a StorageClass share with it: core/validation's
 * object-metadata rule (its extra finalizer check), access modes and resource lists.
 */
import {
  type FieldError,
  FieldPath,
  GoSyntax,
  forbidden,
  invalid,
  invalidEach,
  notSupported,
  required,
} from '../apimachinery/field-error.js';
import { goQuote } from '../golang/strconv.js';
import { type Fields, copyOnWrite, has, isSet, list, object, string, strings } from '../golang/values.js';
import type { KindRules } from '../registry/kind-rules.js';
import { isQualifiedName, isValidLabelValue, nameIsDNSSubdomain } from '../apimachinery/names.js';
import { validateCoreObjectMeta } from './object-meta.js';
import { quantityGoSyntax, quantityString, quantityValue } from '../apimachinery/quantity-print.js';
import { type Quantity, parseQuantity, roundUp, sign } from '../apimachinery/quantity.js';
import { SOURCES, defaultSources } from './persistent-volume-sources.js';

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
export const VOLUME_MODES = ['Block', 'Filesystem'];
const MOUNT_OPTIONS_ANNOTATION = 'volume.beta.kubernetes.io/mount-options';
const NODE_SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'];

/** A quantity Go's decoder leaves as `null`: the zero Quantity, with no format. */
const NULL_QUANTITY: Quantity = { i: { value: 0n, scale: 0 }, s: '', format: '' as Quantity['format'] };

/** A ResourceList as the registry holds it: each quantity parsed, then rounded up to milli units by SetDefaults_ResourceList. */
export function resourceList(value: unknown): Array<[string, Quantity]> {
  return Object.entries(object(value)).map(([name, text]): [string, Quantity] => {
    const quantity = text === null ? NULL_QUANTITY : parseQuantity(text);
    // What does not parse is refused by the decoder; the zero value stands in for it here.
    return [name, quantity === undefined ? NULL_QUANTITY : roundUp(quantity, -3)];
  });
}

/** A ResourceList as %#v prints it: the map's keys sorted as Go sorts strings, by their bytes. */
export function resourceListGoSyntax(value: unknown): GoSyntax {
  if (!isSet(value)) return new GoSyntax('core.ResourceList(nil)');
  const entries = resourceList(value).sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return new GoSyntax(
    `core.ResourceList{${entries.map(([name, quantity]) => `${goQuote(name)}:${quantityGoSyntax(quantity)}`).join(', ')}}`,
  );
}

/** ValidatePositiveQuantityValue. */
export function validatePositiveQuantity(quantity: Quantity, path: FieldPath): FieldError[] {
  return sign(quantity) <= 0 ? [invalid(path, quantityString(quantity), 'must be greater than zero')] : [];
}

/** Each mode supported, and ReadWriteOncePod alone (the Required check on an empty list is the caller's: its words differ). */
export function validateAccessModes(modes: string[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  for (const mode of modes) if (!ACCESS_MODES.includes(mode)) errors.push(notSupported(path, mode, ACCESS_MODES));
  const others = modes.some((mode) => mode !== 'ReadWriteOncePod' && ACCESS_MODES.includes(mode));
  if (modes.includes('ReadWriteOncePod') && others) errors.push(forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errors;
}

function validateNodeSelectorRequirement(requirement: Fields, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const operator = string(requirement.operator);
  const values = strings(requirement.values);
  if (!NODE_SELECTOR_OPERATORS.includes(operator)) errors.push(invalid(path.child('operator'), operator, 'not a valid selector operator'));
  else if ((operator === 'In' || operator === 'NotIn') && values.length === 0)
    errors.push(required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
  else if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0)
    errors.push(forbidden(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  else if ((operator === 'Gt' || operator === 'Lt') && values.length !== 1)
    errors.push(required(path.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
  const key = string(requirement.key);
  errors.push(...invalidEach(path.child('key'), key, isQualifiedName(key)));
  values.forEach((value, index) => errors.push(...invalidEach(path.child('values').index(index), value, isValidLabelValue(value))));
  return errors;
}

/** ValidateNodeFieldSelectorRequirement: only `metadata.name`, matched to one node name. */
function validateNodeFieldSelectorRequirement(requirement: Fields, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const operator = string(requirement.operator);
  const values = strings(requirement.values);
  if (operator !== 'In' && operator !== 'NotIn') errors.push(invalid(path.child('operator'), operator, 'not a valid selector operator'));
  else if (values.length !== 1)
    errors.push(required(path.child('values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  const key = string(requirement.key);
  if (key !== 'metadata.name') errors.push(invalid(path.child('key'), key, 'not a valid field selector key'));
  else
    values.forEach((value, index) =>
      errors.push(...invalidEach(path.child('values').index(index), value, nameIsDNSSubdomain(value, false))),
    );
  return errors;
}

/** ValidateNodeSelector, with invalid label values refused (a create has no old object to allow them). */
export function validateNodeSelector(selector: Fields, path: FieldPath): FieldError[] {
  const terms = list(selector.nodeSelectorTerms);
  const termsPath = path.child('nodeSelectorTerms');
  if (terms.length === 0) return [required(termsPath, 'must have at least one node selector term')];
  return terms.flatMap((entry, index) => {
    const term = object(entry);
    const termPath = termsPath.index(index);
    return [
      ...list(term.matchExpressions).flatMap((item, j) =>
        validateNodeSelectorRequirement(object(item), termPath.child('matchExpressions').index(j)),
      ),
      ...list(term.matchFields).flatMap((item, j) =>
        validateNodeFieldSelectorRequirement(object(item), termPath.child('matchFields').index(j)),
      ),
    ];
  });
}

/** Go's path.Clean(p) == "/": a rooted path whose elements all cancel out. */
function cleansToRoot(value: string): boolean {
  if (!value.startsWith('/')) return false;
  const kept: string[] = [];
  for (const element of value.split('/'))
    if (element === '..') kept.pop();
    else if (element !== '' && element !== '.') kept.push(element);
  return kept.length === 0;
}

function defaults(manifest: Fields): Fields {
  const spec = copyOnWrite(manifest, 'spec');
  if (string(spec.persistentVolumeReclaimPolicy) === '') spec.persistentVolumeReclaimPolicy = 'Retain';
  if (!isSet(spec.volumeMode)) spec.volumeMode = 'Filesystem';
  defaultSources(spec);
  // PrepareForCreate: the VolumeAttributesClass gate is off in 1.33, so the field is dropped.
  spec.volumeAttributesClassName = undefined;
  return manifest;
}

function validateCapacity(spec: Fields, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const capacity = resourceList(spec.capacity);
  if (capacity.length === 0) errors.push(required(path));
  if (!has(spec.capacity, 'storage') || capacity.length > 1)
    errors.push(notSupported(path, resourceListGoSyntax(spec.capacity), ['storage']));
  for (const [name, quantity] of capacity) {
    const value = quantityValue(quantity);
    if (value < 0n) errors.push(invalid(path.key(name), value, 'must be a valid resource quantity'));
    errors.push(...validatePositiveQuantity(quantity, path.key(name)));
  }
  return errors;
}

function validateSpec(spec: Fields, pvName: string, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const modes = strings(spec.accessModes);
  if (modes.length === 0) errors.push(required(path.child('accessModes')));
  errors.push(...validateAccessModes(modes, path.child('accessModes')));
  errors.push(...validateCapacity(spec, path.child('capacity')));
  const policy = string(spec.persistentVolumeReclaimPolicy);
  if (policy !== '' && !RECLAIM_POLICIES.includes(policy))
    errors.push(notSupported(path.child('persistentVolumeReclaimPolicy'), policy, RECLAIM_POLICIES));
  if (isSet(spec.nodeAffinity)) {
    const affinity = object(spec.nodeAffinity);
    if (isSet(affinity.required)) errors.push(...validateNodeSelector(object(affinity.required), path.child('nodeAffinity', 'required')));
    else errors.push(required(path.child('nodeAffinity', 'required'), 'must specify required node constraints'));
  }
  let count = 0;
  for (const source of SOURCES) {
    if (!isSet(spec[source.member])) continue;
    if (count > 0 && !source.neverSecond) {
      const forbiddenPath =
        source.forbiddenAs === undefined ? path.child(source.member) : path.childSpelled(source.forbiddenAs, source.member);
      errors.push(forbidden(forbiddenPath, 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    const sourcePath = source.validatedAs === undefined ? path.child(source.member) : path.childSpelled(source.validatedAs, source.member);
    errors.push(...source.validate(object(spec[source.member]), sourcePath, pvName));
    if (source.member === 'local' && !isSet(spec.nodeAffinity))
      errors.push(required(path.child('nodeAffinity'), 'Local volume requires node affinity'));
  }
  if (count === 0) errors.push(required(path, 'must specify a volume type'));
  if (isSet(spec.hostPath) && cleansToRoot(string(object(spec.hostPath).path)) && policy === 'Recycle')
    errors.push(forbidden(path.child('persistentVolumeReclaimPolicy'), "may not be 'recycle' for a hostPath mount of '/'"));
  const className = string(spec.storageClassName);
  if (className !== '') errors.push(...invalidEach(path.child('storageClassName'), className, nameIsDNSSubdomain(className, false)));
  if (isSet(spec.volumeMode) && !VOLUME_MODES.includes(string(spec.volumeMode)))
    errors.push(notSupported(path.child('volumeMode'), string(spec.volumeMode), VOLUME_MODES));
  return errors;
}

function validate(manifest: Fields): FieldError[] {
  const metadata = object(manifest.metadata);
  const spec = object(manifest.spec);
  const errors = [
    ...validateCoreObjectMeta(metadata, false, nameIsDNSSubdomain),
    ...validateSpec(spec, string(metadata.name), FieldPath.of('spec')),
  ];
  // Mount options used to be an annotation; only the sources that mount a filesystem may have them.
  const mounts = SOURCES.some((source) => source.mountOptions && isSet(spec[source.member]));
  if (!mounts && has(metadata.annotations, MOUNT_OPTIONS_ANNOTATION))
    errors.push(
      forbidden(FieldPath.of('metadata', 'annotations', MOUNT_OPTIONS_ANNOTATION), 'may not specify mount options for this volume type'),
    );
  return errors;
}

export const persistentVolumeRules: KindRules = { namespaced: false, defaults, validate };
