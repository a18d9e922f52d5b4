/**
 * Strings shaped by Kubernetes' name rules (k8s.io/apimachinery/pkg/util/validation), valid ones:
 * realistic, and at the length limits. Their near misses are in near-miss.ts.
 */
import fc from 'fast-check';

export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const DIGITS = '0123456789';
export const UPPER = LOWER.toUpperCase();
export const LOWER_ALNUM = LOWER + DIGITS;
export const ALNUM = LOWER + UPPER + DIGITS;

/** The rules of validation.go, by the limit and the characters each allows. */
export type StringRule =
  | 'dns1123Label' // [a-z0-9]([-a-z0-9]*[a-z0-9])?, 63
  | 'dns1035Label' // [a-z]([-a-z0-9]*[a-z0-9])?, 63
  | 'dns1123Subdomain' // dns1123Labels joined by dots, 253
  | 'qualifiedName' // (subdomain/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?, 253/63
  | 'labelValue' // empty, or a qualified name's name part, 63
  | 'configMapKey' // [-._a-zA-Z0-9]+, 253, not . or .., not starting with ..
  | 'portName'; // IANA_SVC_NAME: [-a-z0-9]+ with a letter, 15, no leading, trailing or double dash

export const MAX_LENGTH: Record<StringRule, number> = {
  dns1123Label: 63,
  dns1035Label: 63,
  dns1123Subdomain: 253,
  qualifiedName: 63,
  labelValue: 63,
  configMapKey: 253,
  portName: 15,
};

const WORDS = [
  'web',
  'api',
  'shop',
  'db',
  'cache',
  'frontend',
  'backend',
  'payments',
  'auth',
  'metrics',
  'queue',
  'worker',
  'edge',
  'data',
];
const DOMAINS = ['example.com', 'acme.io', 'kubernetes.io', 'app.kubernetes.io', 'platform.facetform.dev', 'k8s.io', 'corp.internal'];

export const pick = (pool: string, seed: number) => pool[seed % pool.length]!;

/** A string of exactly `length`: first, middle and last characters from their pools. */
export function shaped(length: number, seed: number, first: string, middle: string, last = first): string {
  let value = '';
  let state = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const pool = i === 0 ? first : i === length - 1 ? last : middle;
    value += pick(pool, state >>> 8);
  }
  return value;
}

/** A realistic name: words joined by dashes, now and then a number. */
const realistic = fc
  .tuple(
    fc.constantFrom(...WORDS),
    fc.option(fc.constantFrom(...WORDS), { nil: undefined }),
    fc.option(fc.integer({ min: 0, max: 99 }), { nil: undefined }),
  )
  .map(([a, b, n]) => [a, b, n].filter((part) => part !== undefined).join('-'));

/** Lengths that matter: the shortest, around the limit, and anything between. */
const lengthUpTo = (max: number) => fc.oneof(fc.constantFrom(1, 2, max - 1, max), fc.integer({ min: 1, max }));

const label = (first: string) =>
  fc.oneof(
    { arbitrary: realistic, weight: 3 },
    { arbitrary: fc.tuple(lengthUpTo(63), fc.nat()).map(([n, seed]) => shaped(n, seed, first, LOWER_ALNUM + '-', LOWER_ALNUM)), weight: 2 },
  );

/** Labels joined by dots up to `max` characters; at times exactly `max`. */
export const subdomain = (max: number) =>
  fc.oneof(
    { arbitrary: fc.tuple(realistic, fc.constantFrom(...DOMAINS)).map(([name, domain]) => `${name}.${domain}`), weight: 4 },
    { arbitrary: realistic, weight: 4 },
    { arbitrary: fc.constantFrom(...DOMAINS), weight: 2 },
    {
      // Exactly max: labels of 63 (the label limit) and a last one to make up the length.
      arbitrary: fc.nat().map((seed) => {
        const parts: string[] = [];
        let left = max;
        while (left > 63) {
          const n = Math.min(63, left - 2);
          parts.push(shaped(n, seed + parts.length, LOWER_ALNUM, LOWER_ALNUM + '-', LOWER_ALNUM));
          left -= n + 1;
        }
        parts.push(shaped(left, seed, LOWER_ALNUM, LOWER_ALNUM + '-', LOWER_ALNUM));
        return parts.join('.');
      }),
      weight: 1,
    },
  );

export const namePart = fc.oneof(
  {
    arbitrary: fc.constantFrom('app', 'name', 'tier', 'version', 'component', 'managed-by', 'part_of', 'Team', 'env.stage', 'x'),
    weight: 3,
  },
  { arbitrary: fc.tuple(lengthUpTo(63), fc.nat()).map(([n, seed]) => shaped(n, seed, ALNUM, ALNUM + '-_.', ALNUM)), weight: 2 },
);

/** A valid string of the rule, realistic or at the limit. */
export function validString(rule: StringRule): fc.Arbitrary<string> {
  switch (rule) {
    case 'dns1123Label':
      return label(LOWER_ALNUM);
    case 'dns1035Label':
      return label(LOWER);
    case 'dns1123Subdomain':
      return subdomain(253);
    case 'qualifiedName':
      return fc
        .tuple(fc.option(subdomain(253), { nil: undefined, freq: 2 }), namePart)
        .map(([prefix, name]) => (prefix === undefined ? name : `${prefix}/${name}`));
    case 'labelValue':
      return fc.oneof(fc.constantFrom('', 'web', 'v1.2.3', 'prod', 'team_a', 'Blue'), namePart);
    case 'configMapKey':
      return fc.oneof(
        fc.constantFrom('app.properties', 'config.yaml', 'LOG_LEVEL', '.env', 'tls.crt', 'a', 'game-settings_v2', '.hidden.json'),
        fc
          .tuple(fc.constantFrom(1, 2, 252, 253, 64, 100), fc.nat())
          .map(([n, seed]) => shaped(n, seed, ALNUM + '_-', ALNUM + '-._', ALNUM)),
      );
    case 'portName':
      return fc.oneof(
        fc.constantFrom('http', 'https', 'grpc', 'metrics', 'web-ui', 'h2c', 'dns-tcp', 'a', 'abcdefghijklmno'),
        fc
          .tuple(fc.integer({ min: 1, max: 15 }), fc.nat())
          .map(([n, seed]) => 'p' + shaped(n - 1, seed, LOWER, LOWER_ALNUM, LOWER_ALNUM).slice(0, n - 1)),
      );
  }
}
