/**
 * The API server's field errors, as apimachinery's `field.Error` has them: a path written the Go
 * way (`spec.ports[0].name`, `metadata.labels[app]`), a cause type, and an error body worded as
 * Go words it (`Invalid value: "Bad_Name": a DNS-1035 label must …`), so a caller reads what
 * `kubectl apply` would have printed.
 */
import { toPointer } from '../../util/json.js';
import { goQuote } from '../golang/strconv.js';

/** apimachinery's CauseType of each kind of field error. */
export type CauseType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany';

const WORDS: Record<CauseType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
};

/** `member`: the member's name in the manifest where Go's path spells it otherwise. */
type Step = { child: string; member?: string } | { index: number } | { key: string };

/**
 * A path into an object, as field.Path builds it: children, list indices and map keys. Linked to
 * its parent, so that the paths a valid manifest's checks make cost one small object each.
 */
export class FieldPath {
  private constructor(
    private readonly parent: FieldPath | undefined,
    private readonly step: Step,
    /** Where the member really is, for the few paths Go spells apart from the manifest. */
    private readonly location?: FieldPath,
  ) {}

  /** This path as Go prints it, pointing at `location` in the manifest (`spec.resources[storage]` is `/spec/resources/requests/storage`). */
  locatedAt(location: FieldPath): FieldPath {
    return new FieldPath(this.parent, this.step, location);
  }

  static of(...names: string[]): FieldPath {
    let path = new FieldPath(undefined, { child: names[0]! });
    for (const name of names.slice(1)) path = path.child(name);
    return path;
  }

  child(...names: string[]): FieldPath {
    let path: FieldPath = this;
    for (const name of names) path = new FieldPath(path, { child: name });
    return path;
  }

  /** A child Go names `goName` (`LoadBalancerSourceRanges`) for the manifest's member `member`. */
  childSpelled(goName: string, member: string): FieldPath {
    return new FieldPath(this, { child: goName, member });
  }

  index(index: number): FieldPath {
    return new FieldPath(this, { index });
  }

  key(key: string): FieldPath {
    return new FieldPath(this, { key });
  }

  private steps(): Step[] {
    const steps: Step[] = [];
    for (let path: FieldPath | undefined = this; path !== undefined; path = path.parent) steps.unshift(path.step);
    return steps;
  }

  /** As Go prints it: `spec.ports[0].name`, `metadata.annotations[a/b]`. */
  toString(): string {
    let text = '';
    for (const step of this.steps()) {
      // Go prints a step with no name as its (empty) index: the root path `field.NewPath("")` is `[]`.
      if ('child' in step && step.child === '') text += '[]';
      else if ('child' in step) text += text === '' ? step.child : `.${step.child}`;
      else text += 'index' in step ? `[${step.index}]` : `[${step.key}]`;
    }
    return text;
  }

  /** The same place as a JSON Pointer into the manifest; Go's root path `` is the whole manifest. */
  pointer(): string {
    if (this.location !== undefined) return this.location.pointer();
    const steps = this.steps().filter((step) => !('child' in step && step.child === ''));
    return toPointer(steps.map((step) => ('child' in step ? (step.member ?? step.child) : 'index' in step ? step.index : step.key)));
  }
}

export interface FieldError {
  path: FieldPath;
  type: CauseType;
  /** Go's ErrorBody: the type's words, the bad value where Go shows one, and the detail. */
  body: string;
}

/** A value as Go's `%#v` would print a struct or list: the caller spells it. */
export class GoSyntax {
  constructor(readonly text: string) {}
}

/** A value as field.Error prints it: strings quoted (%q), numbers and booleans as they are, null for nil. */
export function goValue(value: unknown): string {
  if (value instanceof GoSyntax) return value.text;
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return goQuote(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return `[]string{${value.map(goQuote).join(', ')}}`;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function error(path: FieldPath, type: CauseType, detail: string, value?: { shown: unknown }): FieldError {
  let body = WORDS[type];
  if (value !== undefined) body += `: ${goValue(value.shown)}`;
  if (detail !== '') body += `: ${detail}`;
  return { path, type, body };
}

export const required = (path: FieldPath, detail = ''): FieldError => error(path, 'FieldValueRequired', detail);
export const forbidden = (path: FieldPath, detail: string): FieldError => error(path, 'FieldValueForbidden', detail);
export const invalid = (path: FieldPath, value: unknown, detail: string): FieldError =>
  error(path, 'FieldValueInvalid', detail, { shown: value });
export const duplicate = (path: FieldPath, value: unknown): FieldError => error(path, 'FieldValueDuplicate', '', { shown: value });
export const notFound = (path: FieldPath, value: unknown): FieldError => error(path, 'FieldValueNotFound', '', { shown: value });
export const tooLong = (path: FieldPath, maxLength: number): FieldError =>
  error(path, 'FieldValueTooLong', `may not be more than ${maxLength} bytes`);
export const tooMany = (path: FieldPath, actual: number, max: number): FieldError =>
  error(path, 'FieldValueTooMany', `must have at most ${max} items`, { shown: actual });
export const notSupported = (path: FieldPath, value: unknown, valid: readonly string[]): FieldError =>
  error(path, 'FieldValueNotSupported', valid.length > 0 ? `supported values: ${valid.map(goQuote).join(', ')}` : '', { shown: value });

/** Each message of a name check as one Invalid error, as Go's validators append them. */
export const invalidEach = (path: FieldPath, value: unknown, messages: readonly string[]): FieldError[] =>
  messages.length === 0 ? NONE : messages.map((message) => invalid(path, value, message));

/** No errors: one shared empty list, since a valid manifest's checks return it many times. */
export const NONE: FieldError[] = Object.freeze([]) as unknown as FieldError[];
