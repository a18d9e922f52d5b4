/**
 * The API server's rules for every object's metadata (apimachinery api/validation/objectmeta.go):
 * the name by the kind's rule, generateName, namespace, labels, annotations and their 256 KiB,
 * owner references and finalizers. Custom resources are judged by the same rules.
 */
import { type FieldError, FieldPath, GoSyntax, NONE, forbidden, invalid, invalidEach, required, tooLong } from './field-error.js';
import { goQuote } from '../golang/strconv.js';
import { cutMiddle } from '../../util/text.js';
import { list, number, object, string, strings } from '../golang/values.js';
import { isQualifiedName, isValidLabelValue, nameIsDNSLabel, type NameRule } from './names.js';

export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** metav1 ValidateLabels: each key a qualified name, each value a label value; errors at the map. */
export function validateLabels(labels: unknown, path: FieldPath): FieldError[] {
  const map = object(labels);
  let errors: FieldError[] | undefined;
  for (const key in map) {
    const value = string(map[key]);
    const keyMessages = isQualifiedName(key);
    const valueMessages = isValidLabelValue(value);
    if (keyMessages.length + valueMessages.length === 0) continue;
    (errors ??= []).push(...invalidEach(path, key, keyMessages), ...invalidEach(path, value, valueMessages));
  }
  return errors ?? NONE;
}

export function validateAnnotations(annotations: unknown, path: FieldPath): FieldError[] {
  const map = object(annotations);
  let errors: FieldError[] | undefined;
  let units = 0;
  for (const key in map) {
    const messages = isQualifiedName(key.toLowerCase());
    if (messages.length > 0) (errors ??= []).push(...invalidEach(path, key, messages));
    units += key.length + string(map[key]).length;
  }
  // A UTF-16 unit is at most 3 UTF-8 bytes: only annotations that could pass the limit are measured in bytes.
  if (units * 3 > TOTAL_ANNOTATION_SIZE_LIMIT) {
    let size = 0;
    for (const key in map) size += Buffer.byteLength(key) + Buffer.byteLength(string(map[key]));
    if (size > TOTAL_ANNOTATION_SIZE_LIMIT) (errors ??= []).push(tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT));
  }
  return errors ?? NONE;
}

/** schema.FromAPIVersionAndKind's version: "v1" is the core group's, "group/v1" a group's, anything else none. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return { group: '', version: '' };
}

/** Go's `%#v` of an owner reference; a set pointer prints as an address, here always the same one. */
function goOwnerReference(entry: unknown): string {
  const reference = object(entry);
  const pointer = (value: unknown) => `(*bool)(${typeof value === 'boolean' ? '0xc000000000' : 'nil'})`;
  return (
    `v1.OwnerReference{APIVersion:${goQuote(string(reference.apiVersion))}, Kind:${goQuote(string(reference.kind))}, ` +
    `Name:${goQuote(string(reference.name))}, UID:${goQuote(string(reference.uid))}, ` +
    `Controller:${pointer(reference.controller)}, BlockOwnerDeletion:${pointer(reference.blockOwnerDeletion)}}`
  );
}

/** Characters of the reference list Go prints in each "only one controller" error (its whole list, for every extra controller): few enough that the rule after it stays within an answer's detail. */
const MAX_SHOWN_REFERENCES = 400;

function validateOwnerReferences(references: unknown, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  let firstController = '';
  // Made once and cut: Go prints the whole list per error, n lists for n controllers (20 s and 2.8 GB at 1,000).
  let shown: GoSyntax | undefined;
  const allShown = () =>
    (shown ??= new GoSyntax(cutMiddle(`[]v1.OwnerReference{${list(references).map(goOwnerReference).join(', ')}}`, MAX_SHOWN_REFERENCES)));
  for (const entry of list(references)) {
    const reference = object(entry);
    const apiVersion = string(reference.apiVersion);
    const kind = string(reference.kind);
    const { group, version } = parseGroupVersion(apiVersion);
    if (version === '') errors.push(invalid(path.child('apiVersion'), apiVersion, 'version must not be empty'));
    if (kind === '') errors.push(invalid(path.child('kind'), kind, 'kind must not be empty'));
    if (string(reference.name) === '') errors.push(invalid(path.child('name'), string(reference.name), 'name must not be empty'));
    if (string(reference.uid) === '') errors.push(invalid(path.child('uid'), string(reference.uid), 'uid must not be empty'));
    if (group === '' && version === 'v1' && kind === 'Event')
      errors.push(invalid(path, new GoSyntax(goOwnerReference(reference)), '/v1, Kind=Event is disallowed from being an owner'));
    if (reference.controller === true) {
      const controller = `${kind}/${string(reference.name)}`;
      if (firstController !== '')
        errors.push(
          invalid(
            path,
            allShown(),
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${controller}`,
          ),
        );
      else firstController = controller;
    }
  }
  return errors;
}

function validateFinalizers(finalizers: unknown, path: FieldPath): FieldError[] {
  const names = strings(finalizers);
  const errors = names.flatMap((name) => invalidEach(path, name, isQualifiedName(name)));
  if (names.includes('orphan') && names.includes('foregroundDeletion'))
    errors.push(invalid(path, names, 'finalizer orphan and foregroundDeletion cannot be both set'));
  return errors;
}

/** ValidateObjectMetaAccessor, for metadata as the registry holds it (namespace and a generated name filled in). */
const METADATA = FieldPath.of('metadata');

/** Appends `more` to `errors` without a spread: most checks add nothing. */
export function append(errors: FieldError[], more: readonly FieldError[]): void {
  for (let i = 0; i < more.length; i++) errors.push(more[i]!);
}

/** ValidateObjectMetaAccessor, for metadata as the registry holds it (namespace and a generated name filled in). */
export function validateObjectMeta(metadata: unknown, namespaced: boolean, nameRule: NameRule, path = METADATA): FieldError[] {
  const meta = object(metadata);
  const errors: FieldError[] = [];
  const generateName = string(meta.generateName);
  if (generateName !== '') {
    const messages = nameRule(generateName, true);
    if (messages.length > 0) append(errors, invalidEach(path.child('generateName'), generateName, messages));
  }
  const name = string(meta.name);
  if (name === '') errors.push(required(path.child('name'), 'name or generateName is required'));
  else {
    const messages = nameRule(name, false);
    if (messages.length > 0) append(errors, invalidEach(path.child('name'), name, messages));
  }
  const namespace = string(meta.namespace);
  if (namespaced) {
    if (namespace === '') errors.push(required(path.child('namespace')));
    else {
      const messages = nameIsDNSLabel(namespace, false);
      if (messages.length > 0) append(errors, invalidEach(path.child('namespace'), namespace, messages));
    }
  } else if (namespace !== '') errors.push(forbidden(path.child('namespace'), 'not allowed on this type'));
  if (number(meta.generation) < 0)
    errors.push(invalid(path.child('generation'), number(meta.generation), 'must be greater than or equal to 0'));
  // Members most manifests leave out are not walked at all.
  if (meta.labels !== undefined) append(errors, validateLabels(meta.labels, path.child('labels')));
  if (meta.annotations !== undefined) append(errors, validateAnnotations(meta.annotations, path.child('annotations')));
  if (meta.ownerReferences !== undefined) append(errors, validateOwnerReferences(meta.ownerReferences, path.child('ownerReferences')));
  if (meta.finalizers !== undefined) append(errors, validateFinalizers(meta.finalizers, path.child('finalizers')));
  return errors;
}
