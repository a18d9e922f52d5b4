/**
 * Near misses of Kubernetes' name rules: one perturbation of a valid string (one character past the
 * limit, an upper-case letter, a leading or trailing dash or dot, an underscore, an empty string …).
 * Whether a near miss is still valid depends on the rule (a dot is fine in a subdomain, not in a
 * label; a leading digit in a DNS-1123 label, not in a DNS-1035 one): the oracle says which, these
 * only make sure both sides of every limit are asked.
 */
import fc from 'fast-check';
import {
  ALNUM,
  DIGITS,
  LOWER_ALNUM,
  MAX_LENGTH,
  namePart,
  pick,
  shaped,
  type StringRule,
  subdomain,
  UPPER,
  validString,
} from './strings.js';

/** What a near miss changes. */
export const PERTURBATIONS = [
  'too-long',
  'at-limit',
  'uppercase',
  'leading-dash',
  'trailing-dash',
  'leading-dot',
  'trailing-dot',
  'leading-digit',
  'underscore',
  'double-dot',
  'double-dash',
  'space',
  'slash',
  'percent',
  'colon',
  'empty',
  'non-ascii',
] as const;
export type Perturbation = (typeof PERTURBATIONS)[number];

/** `value` made `length` long, the characters added before the last one (so the ends stay as they were). */
function padTo(value: string, length: number, seed: number, pool: string): string {
  if (value.length === 0) value = 'a';
  if (value.length >= length) return value.slice(0, length - 1) + value.slice(-1);
  return value.slice(0, -1) + shaped(length - value.length, seed, pool, pool, pool) + value.slice(-1);
}

/** One change to a valid string of the rule. */
export function perturb(rule: StringRule, value: string, how: Perturbation, seed: number): string {
  const max = rule === 'qualifiedName' ? value.length - value.split('/').pop()!.length + 63 : MAX_LENGTH[rule];
  const at = value.length === 0 ? 0 : seed % value.length;
  const insert = (text: string) => value.slice(0, at) + text + value.slice(at);
  const pool =
    rule === 'dns1035Label' || rule === 'dns1123Label' || rule === 'dns1123Subdomain' || rule === 'portName' ? LOWER_ALNUM : ALNUM;
  switch (how) {
    case 'too-long':
      return padTo(value, max + 1, seed, pool);
    case 'at-limit':
      return padTo(value, max, seed, pool);
    case 'uppercase':
      return value.length === 0 ? 'A' : value.slice(0, at) + pick(UPPER, seed) + value.slice(at + 1);
    case 'leading-dash':
      return `-${value}`;
    case 'trailing-dash':
      return `${value}-`;
    case 'leading-dot':
      return `.${value}`;
    case 'trailing-dot':
      return `${value}.`;
    case 'leading-digit':
      return `${pick(DIGITS, seed)}${value}`;
    case 'underscore':
      return insert('_');
    case 'double-dot':
      return insert('..');
    case 'double-dash':
      return insert('--');
    case 'space':
      return insert(' ');
    case 'slash':
      return insert('/');
    case 'percent':
      return insert('%');
    case 'colon':
      return insert(':');
    case 'empty':
      return '';
    case 'non-ascii':
      return insert('é');
  }
}

/** A near miss of the rule: which perturbation, and the string. */
export function nearMiss(rule: StringRule, only: readonly Perturbation[] = PERTURBATIONS): fc.Arbitrary<string> {
  return fc.tuple(validString(rule), fc.constantFrom(...only), fc.nat()).map(([value, how, seed]) => perturb(rule, value, how, seed));
}

/** Valid strings and near misses of the rule, the near misses more often. */
export function candidate(rule: StringRule, only?: readonly Perturbation[]): fc.Arbitrary<string> {
  return fc.oneof({ arbitrary: validString(rule), weight: 1 }, { arbitrary: nearMiss(rule, only), weight: 2 });
}

/** A label key, its prefix or its name part perturbed (a prefix of 254, a name of 64, `/name`, `prefix/`, two slashes). */
export const labelKeyCandidate: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: candidate('qualifiedName'), weight: 3 },
  {
    arbitrary: fc
      .tuple(
        subdomain(253),
        fc.constantFrom(
          'too-long',
          'at-limit',
          'uppercase',
          'trailing-dash',
          'underscore',
          'empty',
          'double-dot',
        ) as fc.Arbitrary<Perturbation>,
        fc.nat(),
        namePart,
      )
      .map(([prefix, how, seed, name]) => `${perturb('dns1123Subdomain', prefix, how, seed)}/${name}`),
    weight: 2,
  },
  { arbitrary: fc.tuple(validString('qualifiedName'), validString('qualifiedName')).map(([a, b]) => `${a}/${b}`), weight: 1 },
);
