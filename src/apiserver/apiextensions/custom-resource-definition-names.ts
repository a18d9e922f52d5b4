/**
 * A CRD's spec.names (ValidateCustomResourceDefinitionNames and the required names of
 * validateCustomResourceDefinitionSpec), and Go's strings.ToLower, which the defaults and the
 * kind rules use: rune by rune, without JavaScript's special casings.
 */
import { type FieldError, type FieldPath, invalid, required } from '../apimachinery/field-error.js';
import { strings, string } from '../golang/values.js';
import { isDNS1035Label } from '../apimachinery/names.js';
import type { JsonObject } from '../../util/json.js';

/** Go's strings.ToLower: each rune's simple lower case (İ is i, a final Σ is σ). */
export function goToLower(text: string): string {
  let lower = '';
  for (const rune of text) {
    if (rune === '\u0130') lower += 'i';
    else {
      const mapped = rune.toLowerCase();
      lower += [...mapped].length === 1 ? mapped : rune;
    }
  }
  return lower;
}

/** Go's len(): UTF-8 bytes. */
const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

/** ValidateCustomResourceDefinitionNames: each name set must be a DNS-1035 label (kinds lowercased). */
export function validateNames(names: JsonObject, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const label = (member: 'plural' | 'singular'): void => {
    const value = string(names[member]);
    const messages = isDNS1035Label(value);
    if (byteLength(value) > 0 && messages.length > 0) errors.push(invalid(path.child(member), value, messages.join(',')));
  };
  const kind = (member: 'kind' | 'listKind'): void => {
    const value = string(names[member]);
    const messages = isDNS1035Label(goToLower(value));
    if (byteLength(value) > 0 && messages.length > 0)
      errors.push(invalid(path.child(member), value, `may have mixed case, but should otherwise match: ${messages.join(',')}`));
  };
  label('plural');
  label('singular');
  kind('kind');
  kind('listKind');
  strings(names.shortNames).forEach((shortName, i) => {
    const messages = isDNS1035Label(shortName);
    if (messages.length > 0) errors.push(invalid(path.child('shortNames').index(i), shortName, messages.join(',')));
  });
  // kind and listKind may not be the same or parsing becomes ambiguous
  const kindName = string(names.kind);
  if (kindName !== '' && kindName === string(names.listKind))
    errors.push(invalid(path.child('listKind'), kindName, 'kind and listKind may not be the same'));
  strings(names.categories).forEach((category, i) => {
    const messages = isDNS1035Label(category);
    if (messages.length > 0) errors.push(invalid(path.child('categories').index(i), category, messages.join(',')));
  });
  return errors;
}

/** The spec's names must all be set (status.acceptedNames need not). */
export function requiredNames(names: JsonObject, path: FieldPath): FieldError[] {
  return (['plural', 'singular', 'kind', 'listKind'] as const)
    .filter((member) => string(names[member]) === '')
    .map((member) => required(path.child(member)));
}
