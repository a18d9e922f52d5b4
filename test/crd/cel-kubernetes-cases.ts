/**
 * The expressions `npm run oracle:cel-vectors` asks Kubernetes' CEL environment for CRD rules about
 * (test/oracle/celeval), one library at a time: valid and invalid inputs, edge cases, each function.
 * Left out on purpose, as differences the vectors would not show fairly: static type errors the
 * API server's checker finds and the untyped check here does not (`quantity('1').sign()`,
 * `[1].indexOf(1.0)`); an empty list of doubles summing to int 0 here (Go types the zero by the
 * list); `q == r.add(s)`, where Go's add result, a pointer, makes == fail with "no such overload".
 */
import fc from 'fast-check';
import { each, exprs, type LibraryCase, q } from '../helpers/cel-libraries.js';
import { NET_CASES } from './cel-cases-net.js';
import { VALUE_CASES } from './cel-cases-values.js';

const lists: LibraryCase[] = [
  ...exprs('lists', [
    '[1, 2, 3].sum()',
    '[].sum()',
    '[1.5, 2.5].sum()',
    '[0.1, 0.2].sum()',
    '[9223372036854775807, 1].sum()',
    '[-9223372036854775807, -2].sum()',
    '[1u, 2u].sum()',
    '[18446744073709551615u, 1u].sum()',
    "[duration('1s'), duration('1.5s')].sum()",
    "[duration('9223372036s'), duration('1s')].sum()",
    '[3, 1, 2].min()',
    '[3, 1, 2].max()',
    "['b', 'a', 'c'].min()",
    "['b', 'a', 'c'].max()",
    "[b'b', b'a'].max()",
    '[true, false].min()',
    '[1.0, 0.5, 2.0].min()',
    '[1u, 3u].max()',
    '[].min()',
    '[].max()',
    "[timestamp('2024-01-01T00:00:00Z'), timestamp('2023-01-01T00:00:00Z')].min()",
    '[1, 2, 2, 3].isSorted()',
    '[1, 3, 2].isSorted()',
    '[].isSorted()',
    "['a', 'b', 'B'].isSorted()",
    "['é', 'z'].isSorted()",
    "['😀', 'ｚ'].isSorted()",
    "['ｚ', '😀'].isSorted()",
    "['😀', 'ｚ'].min()",
    '[false, true].isSorted()',
    "[timestamp('2024-01-01T00:00:00Z'), timestamp('2023-01-01T00:00:00Z')].isSorted()",
    "[duration('1s'), duration('2s')].isSorted()",
    '[1, 2, 3, 2].indexOf(2)',
    '[1, 2, 3, 2].lastIndexOf(2)',
    '[1, 2].indexOf(5)',
    '[[1], [2]].indexOf([2])',
    "['a', 'b'].lastIndexOf('a')",
    '[1.0, 2.0].indexOf(2.0)',
    '[].indexOf(1)',
    "[{'a': 1}, {'a': 2}].indexOf({'a': 2})",
  ]),
  { library: 'lists', expr: 'self.sum()', self: [1.5, 2], schema: { type: 'array', items: { type: 'number' } } },
  { library: 'lists', expr: 'self.sum() <= 10', self: [3, 4, 5], schema: { type: 'array', items: { type: 'integer' } } },
  { library: 'lists', expr: 'self.max()', self: [3, 40, 5], schema: { type: 'array', items: { type: 'integer' } } },
  { library: 'lists', expr: 'self.isSorted()', self: ['a', 'c', 'b'], schema: { type: 'array', items: { type: 'string' } } },
  { library: 'lists', expr: "self.indexOf('b')", self: ['a', 'c', 'b'], schema: { type: 'array', items: { type: 'string' } } },
  // A list built an element at a time over 8,000 characters (it overflowed the stack), and lists added twice to one.
  {
    library: 'lists',
    expr: "self.split('').map(c, c).all(c, c.size() == 1)",
    self: 'abcdefghij'.repeat(800),
    schema: { type: 'string', maxLength: 8000 },
  },
  {
    library: 'lists',
    expr: 'self.map(x, x * 2) + [1] != self.map(x, x * 2) + [2]',
    self: [1, 2],
    schema: { type: 'array', items: { type: 'integer' } },
  },
  {
    library: 'lists',
    expr: '[self + [7], self + [8], self.filter(x, x > 1) + self]',
    self: [1, 2],
    schema: { type: 'array', items: { type: 'integer' } },
  },
];

const sets: LibraryCase[] = exprs('sets', [
  'sets.contains([1, 2, 3], [1, 2])',
  'sets.contains([1], [])',
  'sets.contains([], [1])',
  'sets.contains([1, 2], [2, 3])',
  'sets.equivalent([1, 2], [2, 1])',
  'sets.equivalent([1, 1, 2], [1, 2, 2])',
  'sets.equivalent([1, 2], [1, 2, 3])',
  'sets.intersects([1, 2], [3])',
  'sets.intersects([1, 2], [2])',
  'sets.intersects([], [])',
  "sets.contains(['a', 'b'], ['b'])",
  'sets.contains([[1], [2]], [[2]])',
  'sets.contains([1.0, 2.0], [2.0])',
  "sets.intersects([ip('1.2.3.4')], [ip('1.2.3.4')])",
]);

const optional: LibraryCase[] = exprs('optional', [
  'optional.of(1).hasValue()',
  'optional.none().hasValue()',
  'optional.none().value()',
  "optional.of('a').orValue('b')",
  "optional.none().orValue('b')",
  'optional.none().or(optional.of(2)).value()',
  'optional.of(1).or(optional.of(2)).value()',
  'optional.ofNonZeroValue(0).hasValue()',
  "optional.ofNonZeroValue('').hasValue()",
  'optional.ofNonZeroValue([]).hasValue()',
  'optional.ofNonZeroValue({}).hasValue()',
  'optional.ofNonZeroValue(false).hasValue()',
  'optional.ofNonZeroValue(null).hasValue()',
  'optional.ofNonZeroValue(0.0).hasValue()',
  "optional.ofNonZeroValue(b'').hasValue()",
  'optional.ofNonZeroValue(0u).hasValue()',
  'optional.ofNonZeroValue(1).value()',
  "optional.ofNonZeroValue(duration('0s')).hasValue()",
  "optional.ofNonZeroValue(timestamp('1970-01-01T00:00:00Z')).hasValue()",
  '[1, 2].first()',
  '[].first()',
  '[1, 2].last()',
  'optional.unwrap([optional.of(1), optional.none(), optional.of(3)])',
  '[optional.of(1), optional.none()].unwrapOpt()',
  'optional.of(1) == optional.of(1)',
  'optional.of(1) == optional.none()',
  'optional.none() == optional.none()',
  '[optional.none()] == [optional.none()]',
  "optional.of('x') != optional.of('y')",
  'type(optional.none())',
  'optional.of(optional.none()).value().hasValue()',
]);

/** Outside the CRD environment of Kubernetes 1.33 (the API server refuses the rule), and macros skipped here. */
const environment: LibraryCase[] = [
  ...exprs('environment', [
    "isSemver('1.0.0')",
    "semver('1.2.3').major()",
    'math.greatest(1, 2)',
    "base64.encode(b'a')",
    "'abc'.reverse()",
    'cel.bind(x, 1, x + 1)',
    '[2, 1].sort()',
    '[[1], [2]].flatten()',
    "'a'.matches('[')",
    "'a'.find('(')",
    "'a'.findAll('a**')",
    // The type names a rule may write, and those it may not.
    'type(optional.none()) == optional_type',
    "type(cidr('1.0.0.0/8')) == net.CIDR",
    "type(ip('1.2.3.4')) == net.IP",
    "type(ip('1.2.3.4')) == string",
    'net.IP',
    'net.IP{}',
    "type(quantity('1')) == kubernetes.Quantity",
    "type(url('https://a')) == kubernetes.URL",
    'type(format.uuid()) == kubernetes.NamedFormat',
  ]),
  ...exprs('skipped', [
    '[1, 2].all(i, v, v > i)',
    "{'a': 1}.exists(k, v, v == 1)",
    '[1, 2].existsOne(i, v, v == 2)',
    '[1, 2].exists_one(i, v, v == 2)',
    '[1, 2].transformList(i, v, v * 2)',
    "{'a': 1}.transformMap(k, v, v + 1)",
    "{'a': 1}.transformMapEntry(k, v, {v: k})",
    'optional.of(1).optMap(x, x + 1).value()',
    'optional.of(1).optFlatMap(x, optional.of(x + 1)).value()',
  ]),
];

/** Strings of tokens each library's parser is sensitive to, drawn with a fixed seed: reproducible. */
const tokens = (parts: string[], count: number, seed: number) =>
  fc.sample(
    fc.array(fc.constantFrom(...parts), { minLength: 1, maxLength: 10 }).map((list) => list.join('')),
    { seed, numRuns: count },
  );

function randomCases(): LibraryCase[] {
  const addresses = tokens(
    ['0', '1', '9', '25', '255', '256', '01', 'a', 'f', 'F', 'ffff', '1234', '12345', '.', ':', '::', '%', 'x'],
    250,
    31,
  );
  const prefixes = addresses.map((address, i) => `${address}/${['0', '8', '24', '32', '64', '128', '129', '', '08'][i % 9]}`);
  // Half are a number and a suffix, most of which parse; half any mix.
  const numbers = tokens(['0', '1', '5', '9', '12', '3', '.', '999999999'], 125, 34);
  const suffixes = ['', 'Ki', 'Mi', 'Gi', 'Ei', 'm', 'k', 'n', 'u', 'M', 'G', 'T', 'P', 'E', 'e3', 'e-7', 'E+12', 'e19'];
  const quantities = [
    ...numbers.map((number, i) => `${i % 3 === 0 ? '-' : ''}${number}${suffixes[i % suffixes.length]}`),
    ...tokens(['0', '1', '5', '9', '12', '.', 'e', 'E', '-', '+', 'Ki', 'Mi', 'Ei', 'm', 'k', 'n', 'u', 'G', 'i', '3'], 125, 32),
  ];
  const urlParts = [
    'https',
    'http',
    ':',
    '//',
    '/',
    'a',
    'b.c',
    '@',
    '?',
    '#',
    '=',
    '&',
    '%',
    '%41',
    '%2F',
    '%zz',
    '[',
    ']',
    '::1',
    ' ',
    ';',
    '+',
    '80',
    'é',
  ];
  const urls = tokens(urlParts, 250, 33).map((url, i) => (i % 2 === 0 ? `https://${url}` : url));
  const pairs = quantities.slice(0, 100).map((a, i) => [a, quantities[(i * 7 + 3) % quantities.length]!] as const);
  return [
    ...each('random ip', addresses, [(x) => `isIP(${x})`, (x) => `string(ip(${x}))`, (x) => `ip(${x}).isGlobalUnicast()`]),
    ...each('random cidr', prefixes, [(x) => `string(cidr(${x}))`, (x) => `string(cidr(${x}).masked())`]),
    ...each('random quantity', quantities, [
      (x) => `quantity(${x})`,
      (x) => `quantity(${x}).asApproximateFloat()`,
      (x) => `quantity(${x}).asInteger()`,
    ]),
    ...pairs.flatMap(([a, b]) => [
      { library: 'random quantity', expr: `quantity(${q(a)}).add(quantity(${q(b)}))` },
      { library: 'random quantity', expr: `quantity(${q(a)}).sub(quantity(${q(b)})).compareTo(quantity(${q(b)}))` },
    ]),
    ...each('random url', urls, [
      (x) => `url(${x})`,
      (x) => `url(${x}).getHostname() + ' ' + url(${x}).getPort()`,
      (x) => `url(${x}).getQuery()`,
    ]),
  ];
}

export const CEL_LIBRARY_CASES: LibraryCase[] = [
  ...NET_CASES,
  ...VALUE_CASES,
  ...lists,
  ...sets,
  ...optional,
  ...environment,
  ...randomCases(),
];
