/** A reference to an object by group, kind and name, as an Ingress backend and an IngressClass's parameters make it. */
import { type FieldError, type FieldPath, invalidEach, required } from '../apimachinery/field-error.js';
import { type Fields, isSet, string } from '../golang/values.js';
import { isDNS1123Subdomain } from '../apimachinery/names.js';

/** apimachinery's path segment rule: what can stand between two slashes of a URL. */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return ['/', '%'].filter((part) => name.includes(part)).map((part) => `may not contain '${part}'`);
}

export function validateTypedReference(reference: Fields, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (isSet(reference.apiGroup))
    errors.push(...invalidEach(path.child('apiGroup'), string(reference.apiGroup), isDNS1123Subdomain(string(reference.apiGroup))));
  for (const member of ['kind', 'name']) {
    const value = string(reference[member]);
    if (value === '') errors.push(required(path.child(member), `${member} is required`));
    else errors.push(...invalidEach(path.child(member), value, isValidPathSegmentName(value)));
  }
  return errors;
}
