/**
 * Custom resources whose rules the API server runs with its cost tracker (scripts/oracle-cel-cost-vectors.ts):
 * specs drawn at random within the bounds of specSchema('bounded'), with strings that parse as what
 * Kubernetes' libraries read (IPs, CIDRs, URLs, quantities, semvers) and runes beyond ASCII; and
 * the resources that run into the limits: a rule past the per-call limit, rules that spend the
 * budget of the whole resource, a messageExpression past the limit.
 */
type Json = Record<string, unknown>;

const STRINGS = ['abc', 'a', '', 'b', '1.2.3.4', '10.0.0.0/8', '::1', 'https://example.com:8080/p?q=1', '1Gi', '500m', '1.2.3', 'a,b,c'];
const RUNES = ['a', 'b', 'c', ',', '1', 'é', '😀', 'x'];

/** A spec within the bounds of specSchema('bounded'): strings of at most 64 runes, 10 items, 5 entries. */
export function randomSpec(next: () => number): Json {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const count = (most: number) => Math.floor(next() * (most + 1));
  const word = () => (next() < 0.5 ? pick(STRINGS) : Array.from({ length: count(12) }, () => pick(RUNES)).join(''));
  const words = (most = 10) => Array.from({ length: count(most) }, word);
  const map = <T>(value: () => T) => Object.fromEntries(Array.from({ length: count(5) }, () => [pick(['a', 'b', 'c', 'd', 'x']), value()]));
  return {
    s: word(),
    s2: word(),
    se: pick(['a', 'bbb', 'cc']),
    b: Buffer.from(word()).toString('base64'),
    i: count(100) - 5,
    n: next() * 3,
    flag: next() < 0.5,
    d: pick(['10s', '1h', '1m30s', '0s']),
    t: pick(['2020-01-01T00:00:00Z', '2030-06-15T12:30:00.5Z']),
    day: pick(['2020-01-01', '2024-02-29']),
    ios: next() < 0.5 ? count(3) : pick(['a', '50%']),
    l: words(),
    l2: words(),
    li: Array.from({ length: count(10) }, () => count(20) - 3),
    lo: Array.from({ length: count(4) }, () => ({ name: word(), v: count(9), tags: words(4) })),
    ll: Array.from({ length: count(3) }, () => words(3)),
    m: map(word),
    mi: map(() => count(9) - 2),
    mo: map(() => ({ x: word() })),
    o: { a: word(), c: { d: word() } },
    emb: { apiVersion: 'v1', kind: pick(['Pod', 'Service']), metadata: { name: pick(['x', 'y']) } },
  };
}

/** A custom resource of the spec. */
export const resource = (spec: Json): Json => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec });

const listSchema = (items: Json, extra: Json = {}): Json => ({ type: 'array', items, ...extra });
const withSpec = (spec: Json): Json => ({ type: 'object', properties: { spec: { type: 'object', ...spec } } });

/** Resources whose rules the limits stop: each a schema, a resource and what it shows. */
export function limitCases(): Array<{ source: string; schema: Json; object: Json }> {
  const cube = 'self.l.all(a, self.l.all(b, self.l.all(c, a == b && b == c)))';
  const cubeSchema = withSpec({ properties: { l: listSchema({ type: 'string' }) }, 'x-kubernetes-validations': [{ rule: cube }] });
  const pairs = 'self.tags.all(a, self.tags.all(b, a == b))';
  const itemsSchema = withSpec({
    properties: {
      items: listSchema({
        type: 'object',
        properties: { tags: listSchema({ type: 'string' }) },
        'x-kubernetes-validations': [{ rule: pairs }],
      }),
    },
  });
  const joined = "self.l.map(x, self.l.map(y, x + y).join(',')).join(';')";
  const messageSchema = withSpec({
    properties: { l: listSchema({ type: 'string' }) },
    'x-kubernetes-validations': [{ rule: 'self.l.size() < 1', messageExpression: joined }, { rule: 'self.l.size() < 2' }],
  });
  const tags = (n: number) => Array(n).fill('t');
  return [
    { source: 'the n³ rule on 200 items: past the per-call limit', schema: cubeSchema, object: resource({ l: Array(200).fill('x') }) },
    { source: 'the n³ rule on 15 items: within it', schema: cubeSchema, object: resource({ l: Array(15).fill('x') }) },
    {
      source: 'an n² rule on 100 items of 150 tags: past the budget of the resource',
      schema: itemsSchema,
      object: resource({ items: Array.from({ length: 100 }, () => ({ tags: tags(150) })) }),
    },
    {
      source: 'an n² rule on 30 items of 150 tags: within it',
      schema: itemsSchema,
      object: resource({ items: Array.from({ length: 30 }, () => ({ tags: tags(150) })) }),
    },
    { source: 'a messageExpression past the per-call limit', schema: messageSchema, object: resource({ l: Array(300).fill('ab') }) },
    { source: 'a messageExpression within it', schema: messageSchema, object: resource({ l: Array(20).fill('ab') }) },
  ];
}
