/**
 * The schemas and rules scripts/cel-cost-vectors.ts asks the API server's cost estimate about: a
 * custom resource whose spec has a member of every kind a rule reads (strings of each format, bytes,
 * numbers, int-or-string, lists and maps of scalars, objects and lists, objects, an embedded
 * resource), in four sizes (unbounded, bounded, tight, and bounds on some members only), with rules
 * over each that call every function the estimate prices, rules on nested nodes (whose count of runs
 * the lists and maps above multiply) and messageExpressions.
 */
type Node = Record<string, unknown>;

export type Bounds = 'unbounded' | 'bounded' | 'tight' | 'mixed';
export const BOUNDS: Bounds[] = ['unbounded', 'bounded', 'tight', 'mixed'];

/** Rules on spec, each a valid CEL expression over the spec of specSchema(). */
export const SPEC_RULES = [
  "self.s == 'x'",
  'self.s.size() < 10',
  "self.s.startsWith('a')",
  'self.s.endsWith(self.s2)',
  'self.s.contains(self.s2)',
  "self.s.matches('^[a-z]+$')",
  "matches(self.s, 'a+')",
  "self.s + self.s2 == 'ab'",
  'self.s < self.s2',
  "self.s >= 'a' && self.b <= b'z'",
  "self.s.lowerAscii() == 'a'",
  'self.s.upperAscii().size() > 0',
  "self.s.trim() != ''",
  "self.s.substring(1) == ''",
  "self.s.substring(1, 2) == ''",
  "self.s.replace('a', 'bb') == ''",
  "self.s.replace('a', self.s2).size() > 0",
  "self.s.replace('', 'x').size() > 0",
  "self.s.replace('ab', 'a') == self.s2",
  "self.s.replace('a', 'b', 2) != ''",
  "self.s.replace('a', self.s).replace('a', self.s).size() > 0",
  "self.s.split(',').size() > 1",
  "self.s.split(',', 2).size() == 2",
  "self.s.split(',').all(p, p != '')",
  "self.l.join(',') == ''",
  "self.l.join() != ''",
  "self.s.indexOf('a') >= 0",
  "self.s.lastIndexOf('a', 3) >= 0",
  "self.s.charAt(0) == 'a'",
  "self.s.find('[0-9]+') == ''",
  "self.s.findAll('[0-9]+').size() > 0",
  "self.s.findAll('[0-9]+', 2).size() > 0",
  "url(self.s).getHost() == 'a'",
  "url(self.s) == url('https://a')",
  'isURL(self.s)',
  'quantity(self.s).isInteger()',
  'isQuantity(self.s)',
  "quantity(self.s) == quantity('1')",
  "quantity(self.s).add(quantity('1')).isGreaterThan(quantity(self.s2))",
  'ip(self.s).family() == 4',
  "ip(self.s) == ip('1.2.3.4')",
  'isIP(self.s)',
  'cidr(self.s).containsIP(self.s2)',
  'cidr(self.s).containsIP(ip(self.s2))',
  'cidr(self.s).containsCIDR(self.s2)',
  'cidr(self.s).containsCIDR(cidr(self.s2))',
  'cidr(self.s).ip().isLoopback()',
  'cidr(self.s).masked().prefixLength() > 8',
  'isCIDR(self.s)',
  'ip.isCanonical(self.s)',
  '!format.dns1123Label().validate(self.s).hasValue()',
  "!format.named('dns1123Label').value().validate(self.s).hasValue()",
  "format.named('uuid') == format.named('uuid')",
  'semver(self.s).major() == 1',
  "semver(self.s).isLessThan(semver('1.0.0'))",
  'isSemver(self.s)',
  'string(self.b).size() > 0',
  'bytes(self.s).size() > 0',
  "strings.quote(self.s) != ''",
  "'%s-%d'.format([self.s, self.i]) != ''",
  'self.s in self.l',
  'self.s in self.m',
  "self.s in ['a', 'b']",
  'self.i in [1, 2, 3]',
  'self.l.all(x, x.size() < 5)',
  'self.l.exists(x, x == self.s)',
  "self.l.exists_one(x, x == 'a')",
  "self.l.map(x, x + 'a').size() > 0",
  "self.l.filter(x, x.startsWith('a')).size() == 0",
  "self.l.map(x, x.size() > 0, x).all(y, y != '')",
  'self.li.all(x, x > 0)',
  'self.li.sum() > 0',
  'self.li.isSorted()',
  'self.l.isSorted()',
  'self.li.min() >= 0',
  "self.l.max() != ''",
  'self.li.indexOf(1) >= 0',
  "self.l.lastIndexOf('a') >= 0",
  'self.lo.all(o, o.name.size() > 0)',
  'self.lo.exists(o, o.tags.exists(t, t == o.name))',
  "self.lo.map(o, o.name).all(n, n != '')",
  'self.lo.exists_one(o, o.name == self.s)',
  'self.lo.all(o, o.tags.all(t, self.l.exists(x, x == t)))',
  "self.ll.all(l, l.all(x, x != ''))",
  "self.m.all(k, self.m[k] != '')",
  "self.m.exists(k, k.startsWith('a'))",
  'self.mi.all(k, self.mi[k] > 0)',
  "self.mo.all(k, self.mo[k].x != '')",
  'self.o.a == self.o.c.d',
  'has(self.o.a)',
  'has(self.o.c) && has(self.o.c.d)',
  'self.i > 0 && self.n < 1.5 && self.flag',
  "self.d > duration('1s')",
  "self.t < timestamp('2024-01-01T00:00:00Z')",
  'self.t.getFullYear() > 2000',
  'self.day.getDayOfWeek() >= 0',
  "self.ios == 1 || self.ios == 'a'",
  'type(self.ios) == string',
  'dyn(self.s).size() > 0',
  '[1, 2, 3].all(x, x > 0)',
  "['a', 'b'].exists(x, x == self.s)",
  "{'a': 1}.all(k, k == self.s)",
  "self.l + ['a'] == ['a']",
  'self.l == self.l',
  'self.m == self.m',
  'self.o == self.o',
  "self.l[0] == 'a'",
  "self.lo[0].name == 'a'",
  "self.m['a'] == 'b'",
  "self.l.size() == 0 ? true : self.l[0] != ''",
  '(self.i > 0 ? self.s : self.s2).size() > 0',
  '(self.i > 0 ? self.l : self.l2).all(x, x != self.s)',
  'self.l.all(a, self.l.all(b, a == b))',
  'self.l.all(a, self.l.all(b, self.l.all(c, a == b && b == c)))',
  'self.li.all(a, self.li.all(b, self.li.all(c, a == b && b == c)))',
  "sets.contains(self.l, ['a'])",
  'sets.intersects(self.l, self.l2)',
  'sets.equivalent(self.li, [1, 2])',
  'self.l.all(i, v, v.size() > i)',
  'self.m.exists(k, v, k == v)',
  "self.l.existsOne(i, v, v == 'a')",
  "self.l.transformList(i, v, v + 'x').size() > 0",
  'self.l.transformList(i, v, i > 0, v).size() > 0',
  "self.m.transformMap(k, v, v + 'x').size() > 0",
  'self.m.transformMapEntry(k, v, {k: v}).size() > 0',
  'self.s.size() + self.l.size() > 3',
  'int(self.s) > 0',
  "string(self.i) == '1'",
  'double(self.i) > 0.0',
  "self.emb.kind == 'Pod'",
  "self.emb.metadata.name == 'x'",
  "self.b == b'abc'",
  'size(self.s) > 0',
  'self.s.size() > 0 && self.s2.size() > 0 || self.i == 0',
  "!(self.s == 'a')",
  '-self.i < 0',
  'self.i % 2 == 0',
  'self.li.map(x, x * 2).sum() > 0',
  'optional.of(self.s).hasValue()',
  "self.se == 'a'",
  "self.se + self.s == 'ab'",
  'self.l2.all(x, self.l.exists(y, x.contains(y)))',
  "self.m.map(k, self.m[k]).exists(v, v.endsWith('x'))",
  'self.lo.all(o, self.lo.exists_one(p, p.name == o.name))',
  "self.l.map(x, x)[0] == 'a'",
  "self.lo.map(o, o)[0].name == 'a'",
  "self.m[self.lo[0].name] == 'b'",
  "self.l[size(self.l) - 1] == 'c'",
  "(self.i > 0 ? self.o : self.o).a == 'x'",
  '[self.s, self.s2][0] == self.s',
  "self.m[self.s.substring(0, 1)] == 'b'",
  'has(self.m.a)',
  'self.l.map(x, [x, x]).size() > 0',
  "{'a': self.s}.a == self.s",
  "self.l[self.li[0]] == 'bb'",
  "self.s.replace('', '-') == self.s2",
  "self.s.replace('a', 'b', 1) != self.s",
  "self.s.split('').size() == self.s.size()",
  "self.l.exists(x, x.matches('^[a-c]+$'))",
];

/** Rules on nodes below spec: where they sit (properties/items/additionalProperties steps from spec) and the rule. */
export const NESTED_RULES: Array<{ at: string[]; rule: string }> = [
  { at: ['properties', 'l', 'items'], rule: 'self.size() < 10' },
  { at: ['properties', 'lo', 'items'], rule: "self.name != '' && self.tags.all(t, t != self.name)" },
  { at: ['properties', 'm', 'additionalProperties'], rule: "self != ''" },
  { at: ['properties', 'll', 'items', 'items'], rule: "self.startsWith('a')" },
  { at: ['properties', 'o', 'properties', 'c'], rule: 'self.d.size() > 0' },
  { at: ['properties', 'emb'], rule: "self.metadata.name != ''" },
  { at: ['properties', 'mo', 'additionalProperties'], rule: "self.x.matches('^a')" },
];

/** Rules with a messageExpression on spec. */
export const MESSAGE_RULES = [
  { rule: "self.s != ''", messageExpression: "'bad ' + self.s" },
  { rule: 'self.l.size() < 3', messageExpression: "self.l.join(', ')" },
  { rule: 'self.i > 0', messageExpression: "self.l.map(x, x + self.s).join(' ')" },
];

/** The bounds of a member (maxLength, maxItems or maxProperties), by name or chosen by a function. */
export type Sizer = (kind: 'string' | 'list' | 'map', member: string) => Record<string, number>;

const sized = (bounds: Bounds | Sizer, kind: 'string' | 'list' | 'map', member = '') => {
  if (typeof bounds === 'function') return bounds(kind, member);
  const tight = bounds === 'tight';
  if (bounds === 'unbounded' || (bounds === 'mixed' && member.length % 2 === 1)) return {};
  if (kind === 'string') return { maxLength: tight ? 8 : 64 };
  if (kind === 'list') return { maxItems: tight ? 3 : 10 };
  return { maxProperties: tight ? 2 : 5 };
};

/** The spec every rule reads, with the bounds of `bounds`. */
export function specSchema(bounds: Bounds | Sizer): Node {
  const string = (member: string, extra: Node = {}) => ({ type: 'string', ...sized(bounds, 'string', member), ...extra });
  const list = (member: string, items: Node) => ({ type: 'array', items, ...sized(bounds, 'list', member) });
  const map = (member: string, values: Node) => ({ type: 'object', additionalProperties: values, ...sized(bounds, 'map', member) });
  return {
    type: 'object',
    properties: {
      s: string('s'),
      s2: string('s2'),
      se: { type: 'string', enum: ['a', 'bbb', 'cc'] },
      b: string('bb', { format: 'byte' }),
      i: { type: 'integer' },
      n: { type: 'number' },
      flag: { type: 'boolean' },
      d: { type: 'string', format: 'duration' },
      t: { type: 'string', format: 'date-time' },
      day: { type: 'string', format: 'date' },
      ios: { 'x-kubernetes-int-or-string': true },
      l: list('l', string('l-item')),
      l2: list('l2x', string('l2')),
      li: list('li', { type: 'integer' }),
      lo: list('lo', {
        type: 'object',
        required: ['name'],
        properties: { name: string('name'), v: { type: 'integer' }, tags: list('tags', string('tag')) },
      }),
      ll: list('ll', list('lli', string('llit'))),
      m: map('m', string('mv')),
      mi: map('mii', { type: 'integer' }),
      mo: map('mo', { type: 'object', properties: { x: string('x') } }),
      o: { type: 'object', properties: { a: string('a'), c: { type: 'object', properties: { d: string('d') } } } },
      emb: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    },
  };
}

/** A CRD version's openAPIV3Schema: `spec` with these rules on it (and the nested ones where they sit). */
export function resourceSchema(
  bounds: Bounds | Sizer,
  rules: Array<{ rule: string; messageExpression?: string }>,
  nested: Array<{ at: string[]; rule: string }> = [],
): Node {
  const spec = structuredClone(specSchema(bounds));
  if (rules.length > 0) spec['x-kubernetes-validations'] = rules;
  for (const { at, rule } of nested) {
    let node = spec;
    for (const step of at) node = node[step] as Node;
    node['x-kubernetes-validations'] = [{ rule }];
  }
  return { type: 'object', properties: { spec } };
}

/** A seeded generator (mulberry32): the same vectors from the same seed. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Bounds drawn at random: a member unbounded one time in three, else a bound from 0 to a few hundred. */
export function randomSizer(next: () => number): Sizer {
  const most = { string: 300, list: 60, map: 20 };
  const keyword = { string: 'maxLength', list: 'maxItems', map: 'maxProperties' };
  return (kind) => (next() < 1 / 3 ? {} : { [keyword[kind]]: Math.floor(next() * (most[kind] + 1)) });
}
