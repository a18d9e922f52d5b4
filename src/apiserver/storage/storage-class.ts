/**
 * A StorageClass as the API server judges it on create: SetDefaults_StorageClass (reclaimPolicy
 * Delete, volumeBindingMode Immediate), then storage/validation ValidateStorageClass: the
 * provisioner, the parameters' count and size, the policies and the allowed topologies. Its
 * mountOptions are not checked by the API server.
 */
import {
  type FieldError,
  FieldPath,
  duplicate,
  invalid,
  invalidEach,
  notSupported,
  required,
  tooLong,
} from '../apimachinery/field-error.js';
import { type Fields, isSet, list, object, string, strings } from '../golang/values.js';
import type { KindRules } from '../registry/kind-rules.js';
import { validateCoreObjectMeta } from '../core/object-meta.js';
import { isQualifiedName, nameIsDNSSubdomain } from '../apimachinery/names.js';

const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];
const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_SIZE = 256 * 1024;

function defaults(manifest: Fields): Fields {
  if (!isSet(manifest.reclaimPolicy)) manifest.reclaimPolicy = 'Delete';
  if (!isSet(manifest.volumeBindingMode)) manifest.volumeBindingMode = 'Immediate';
  return manifest;
}

function validateProvisioner(provisioner: string, path: FieldPath): FieldError[] {
  if (provisioner === '') return [required(path)];
  // Go judges (and shows) the provisioner in lower case.
  const lower = provisioner.toLowerCase();
  return invalidEach(path, lower, isQualifiedName(lower));
}

function validateParameters(parameters: unknown, path: FieldPath): FieldError[] {
  const entries = Object.entries(object(parameters));
  if (entries.length > MAX_PARAMETERS) return [tooLong(path, MAX_PARAMETERS)];
  const errors: FieldError[] = [];
  let size = 0;
  for (const [key, value] of entries) {
    if (key === '') errors.push(invalid(path, key, 'field can not be empty.'));
    size += Buffer.byteLength(key) + Buffer.byteLength(string(value));
  }
  if (size > MAX_PARAMETERS_SIZE) errors.push(tooLong(path, MAX_PARAMETERS_SIZE));
  return errors;
}

/** A term as Go's map of key to set of values, for the duplicate check. */
type Term = Map<string, Set<string>>;

/** ValidateTopologySelectorTerm: each requirement's values, no key twice; and the term as a map. */
function validateTopologyTerm(term: Fields, path: FieldPath): [Term, FieldError[]] {
  const errors: FieldError[] = [];
  const keys: Term = new Map();
  list(term.matchLabelExpressions).forEach((entry, index) => {
    const requirement = object(entry);
    const requirementPath = path.child('matchLabelExpressions').index(index);
    const values = strings(requirement.values);
    const seen = new Set<string>();
    if (values.length === 0) errors.push(required(requirementPath.child('values')));
    values.forEach((value, i) => {
      if (seen.has(value)) errors.push(duplicate(requirementPath.child('values').index(i), value));
      seen.add(value);
    });
    const key = string(requirement.key);
    errors.push(...invalidEach(requirementPath.child('key'), key, isQualifiedName(key)));
    if (keys.has(key)) errors.push(duplicate(requirementPath.child('key'), key));
    keys.set(key, seen);
  });
  return [keys, errors];
}

/** A term as a key equal for semantically equal terms (Go's DeepEqual of its map of sets): keys and values sorted. */
const termKey = (term: Term): string =>
  JSON.stringify([...term].map(([key, values]) => [key, [...values].sort()]).sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0)));

function validateAllowedTopologies(topologies: unknown[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  // Go compares each term with every earlier one, and its list of seen terms starts with as many
  // nil maps as there are terms; a nil map is semantically equal to an empty one, so a term without
  // expressions is a duplicate of each of them. Its errors for one term all say the same at one
  // path, and an answer shows them once: one is added, found by a keyed set in linear time.
  const seen = new Set<string>([termKey(new Map())]);
  topologies.forEach((entry, index) => {
    const [term, termErrors] = validateTopologyTerm(object(entry), path.index(index));
    errors.push(...termErrors);
    const key = termKey(term);
    if (seen.has(key)) errors.push(duplicate(path.index(index).child('matchLabelExpressions'), ''));
    seen.add(key);
  });
  return errors;
}

function validate(manifest: Fields): FieldError[] {
  const errors = validateCoreObjectMeta(manifest.metadata, false, nameIsDNSSubdomain);
  errors.push(...validateProvisioner(string(manifest.provisioner), FieldPath.of('provisioner')));
  errors.push(...validateParameters(manifest.parameters, FieldPath.of('parameters')));
  const policy = string(manifest.reclaimPolicy);
  if (policy !== '' && !RECLAIM_POLICIES.includes(policy))
    errors.push(notSupported(FieldPath.of('reclaimPolicy'), policy, RECLAIM_POLICIES));
  const mode = string(manifest.volumeBindingMode);
  if (!BINDING_MODES.includes(mode)) errors.push(notSupported(FieldPath.of('volumeBindingMode'), mode, BINDING_MODES));
  errors.push(...validateAllowedTopologies(list(manifest.allowedTopologies), FieldPath.of('allowedTopologies')));
  return errors;
}

export const storageClassRules: KindRules = { namespaced: false, defaults, validate };
