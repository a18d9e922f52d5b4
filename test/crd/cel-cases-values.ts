/** Cases of the quantity, format and regex libraries for `npm run oracle:cel-vectors` (see cel-kubernetes-cases.ts). */
import { each, exprs, type LibraryCase, q } from '../helpers/cel-libraries.js';

const QUANTITIES = [
  ...['0', '1', '1.5', '-1', '+1', '1k', '1K', '1Ki', '1Mi', '1.5Gi', '1m', '100m', '0.1', '.5', '5.', '.', '1e3', '1E3', '1e-3'],
  ...['1.5e3', '1e', '1x', '', ' 1', '1 ', '1Ki1', '9223372036854775807', '9223372036854775808', '-9223372036854775808', '1E18', '1E19'],
  ...['12345678901234567890', '1n', '0.5n', '1u', '1.000000001', '100Mi', '1024Ki', '1Ei', '8Ei', '0.1Ki', '1e1000', '-0', '--1', '1Pi'],
  ...['1P', '1T', '1.0', '0.000000001', '1000000000000000000000Ki', '1.5Ki', '-1.5Mi', '123456789012345678', '1234567890123456789', '500m'],
  ...['2.5', '1e+3', '1E-9', '1e-10', '0.0001', '4Gi', '1G', '1M', '-0.5', '1e-18'],
  // Go holds these as inf.Decs of 100,000 digits: ours must not, and must agree.
  ...['1234567890123456789e99999', '-1234567890123456789e99999', '1234567890123456789e100001', '1e-100001', '-1e-100001'],
];
const QUANTITY_PAIRS: Array<[string, string]> = [
  ['1', '1000m'],
  ['1Ki', '1024'],
  ['1Ki', '1k'],
  ['1.5', '2'],
  ['-1', '1'],
  ['1e3', '1k'],
  ['0.5n', '1n'],
  ['9223372036854775807', '1'],
  ['-9223372036854775808', '1'],
  ['1E18', '1E18'],
  ['100m', '0.1'],
  ['1Mi', '1M'],
  ['8Ei', '1'],
  ['0', '1Ki'],
  ['1m', '1n'],
  ['1.5Gi', '512Mi'],
  ['1e1000', '1'],
  ['1234567890123456789e100001', '1e100001'],
  ['1e-100001', '1n'],
];
const quantity: LibraryCase[] = [
  ...each('quantity', QUANTITIES, [
    (x) => `isQuantity(${x})`,
    (x) => `quantity(${x})`,
    (x) => `quantity(${x}).asInteger()`,
    (x) => `quantity(${x}).isInteger()`,
    (x) => `quantity(${x}).asApproximateFloat()`,
    (x) => `sign(quantity(${x}))`,
  ]),
  ...QUANTITY_PAIRS.flatMap(([a, b]) =>
    ['compareTo', 'isGreaterThan', 'isLessThan', 'add', 'sub'].flatMap((method) => [
      { library: 'quantity', expr: `quantity(${q(a)}).${method}(quantity(${q(b)}))` },
      { library: 'quantity', expr: `quantity(${q(b)}).${method}(quantity(${q(a)}))` },
    ]),
  ),
  ...QUANTITY_PAIRS.map(([a, b]) => ({ library: 'quantity', expr: `quantity(${q(a)}) == quantity(${q(b)})` })),
  ...['1', '1.5', '1Ki', '-1', '0', '9223372036854775807', '1m', '1e3'].flatMap((x) =>
    [1, -1, 0, 9223372036854775807n, -9223372036854775807n, 1000].flatMap((n) => [
      { library: 'quantity', expr: `quantity(${q(x)}).add(${n})` },
      { library: 'quantity', expr: `quantity(${q(x)}).sub(${n})` },
    ]),
  ),
  ...exprs('quantity', [
    "quantity('1').add(quantity('1')).add(1).compareTo(quantity('3'))",
    "quantity('1').add(1) == quantity('2')",
    "type(quantity('1'))",
    "[quantity('1')].indexOf(quantity('1000m'))",
    "quantity('1Gi').isGreaterThan(quantity('1G'))",
  ]),
  { library: 'quantity', expr: "quantity(self).compareTo(quantity('1Gi')) >= 0", self: '10Gi', schema: { type: 'string' } },
  { library: 'quantity', expr: "quantity(self).compareTo(quantity('1Gi')) >= 0", self: '100Mi', schema: { type: 'string' } },
  {
    library: 'quantity',
    expr: "isQuantity(self) && quantity(self).isLessThan(quantity('4'))",
    self: '500m',
    schema: { 'x-kubernetes-int-or-string': true },
  },
];

const FORMAT_NAMES = ['dns1123Label', 'dns1123Subdomain', 'dns1035Label', 'qualifiedName', 'dns1123LabelPrefix'];
const FORMAT_NAMES_2 = ['dns1123SubdomainPrefix', 'dns1035LabelPrefix', 'labelValue', 'uri', 'uuid', 'byte', 'date', 'datetime'];
const FORMAT_INPUTS = [
  ...['abc', 'ABC', 'a-b', '-ab', 'ab-', 'a.b', 'a_b', '', 'a'.repeat(63), 'a'.repeat(64), '1abc', 'a/b', 'example.com/name', 'ex ample'],
  ...['my.name', 'x'.repeat(253), `${'x'.repeat(250)}.com`, '123e4567-e89b-12d3-a456-426614174000', '123E4567E89B12D3A456426614174000'],
  ...['123e4567-e89b-12d3-a456-42661417400', 'aGVsbG8=', 'aGVsbG8', 'aGVsbA==', 'aGVs', 'aGVsbA=', 'a+/=', '2024-02-29', '2023-02-29'],
  ...['2024-13-01', '2024-1-01', '0000-01-01', '2024-01-01T10:00:00Z', '2024-01-01t10:00:00.123+01:00', '2024-01-01T24:00:00Z'],
  ...['2024-01-01T10:00:00', '2024-01-01T10:60:00Z', '2024-01-01T10:00:00Zt', '2024-01-01 10:00:00Z', '2024-01-01T10:00:00x5Z'],
  ...['https://x', '/p', 'p', '*', 'a.b-c_d', 'a-', 'prefix/name', 'a'.repeat(253) + '/x', '_a', 'a..b', 'é'],
];
const format: LibraryCase[] = [
  ...[...FORMAT_NAMES, ...FORMAT_NAMES_2].flatMap((name) =>
    FORMAT_INPUTS.map((input) => ({ library: 'format', expr: `format.${name}().validate(${q(input)})` })),
  ),
  ...[...FORMAT_NAMES, ...FORMAT_NAMES_2, 'unknown', 'DNS1123Label', ''].map((name) => ({
    library: 'format',
    expr: `format.named(${q(name)})`,
  })),
  ...exprs('format', [
    "format.named('dns1123Label').value().validate('Not_Valid')",
    "format.named('uuid').hasValue()",
    "format.named('nope').hasValue()",
    "format.named('dns1123Label').value() == format.dns1123Label()",
    'format.dns1123Label() == format.dns1035Label()',
    'type(format.uuid())',
    "!format.dns1123Label().validate('my-name').hasValue()",
    "format.labelValue().validate('-bad').orValue([]).size()",
  ]),
  { library: 'format', expr: '!format.dns1123Subdomain().validate(self).hasValue()', self: 'my.example.com', schema: { type: 'string' } },
  { library: 'format', expr: '!format.dns1123Subdomain().validate(self).hasValue()', self: 'My.Example', schema: { type: 'string' } },
];

const REGEX_CASES: Array<[string, string]> = [
  ['abc123def456', '[0-9]+'],
  ['abc', 'x*'],
  ['abc', ''],
  ['', 'a*'],
  ['aaa', 'a*?'],
  ['aaa', 'a*'],
  ['hello world', '\\bw\\w+'],
  ['hello world', '(?i)WORLD'],
  ['a\nb', '^b'],
  ['a\nb', '(?m)^b'],
  ['éa', '.'],
  ['😀x', '.x'],
  ['abab', '(ab)+'],
  ['abcabc', 'a|ab'],
  ['foo.bar', '\\.'],
  ['x', '['],
  ['x', '(?P<n>x)'],
  ['x', 'a{1001}'],
  ['x', '(?=x)'],
  ['aaa', 'a{2}'],
  ['ab12', '\\d'],
  ['ab12', '[[:alpha:]]+'],
  ['abç', '\\pL+'],
  ['aab', '(?U)a+'],
  ['banana', 'an|ana'],
  ['banana', '(a|an)*'],
  ['xyz', '$'],
  ['xyz', '^'],
  ['a b  c', '\\s+'],
  ['A1_b', '\\W'],
  ['key=value; k2=v2', '(\\w+)=(\\w+)'],
  ['ß', '(?i)SS'],
  ['K', '(?i)k'],
  ['aXbXc', '\\B'],
  ['line1\nline2', '(?s).+'],
  ['line1\nline2', '.+'],
];
const regex: LibraryCase[] = [
  ...REGEX_CASES.flatMap(([text, pattern]) => [
    { library: 'regex', expr: `${q(text)}.find(${q(pattern)})` },
    { library: 'regex', expr: `${q(text)}.findAll(${q(pattern)})` },
  ]),
  ...[0, 1, 2, -1, -5].map((n) => ({ library: 'regex', expr: `'a1b22c333'.findAll('[0-9]+', ${n})` })),
  { library: 'regex', expr: "'abc'.find(self)", self: '[', schema: { type: 'string' } },
  { library: 'regex', expr: "'abc'.findAll(self)", self: 'b|c', schema: { type: 'string' } },
  { library: 'regex', expr: "self.find('[0-9]+') == '42'", self: 'v42', schema: { type: 'string' } },
];

export const VALUE_CASES: LibraryCase[] = [...quantity, ...format, ...regex];
