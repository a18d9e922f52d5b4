/**
 * What the API server does to a custom resource before it judges it (issue 31): non-nullable nulls
 * without a default dropped, defaults filled in (into defaults too, and where a null is not allowed),
 * and a set's repeats refused at their index. The oracle runs (test/vectors, Gateway API's kinds)
 * hold these against Kubernetes' own code; here each rule alone, on a schema small enough to read.
 */
import { describe, expect, it } from 'vitest';
import { ListMapKeys } from '../../src/crd/list-map-keys.js';
import { SchemaDefaults } from '../../src/schema/structural-defaults.js';
import { NullPruning } from '../../src/schema/structural-nulls.js';

const address = {
  type: 'object',
  properties: {
    type: { type: 'string', default: 'IPAddress' },
    value: { type: 'string' },
    options: { type: 'object', default: {}, properties: { mode: { type: 'string', default: 'Fast' } } },
    note: { type: 'string', nullable: true },
  },
};
const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        addresses: { type: 'array', items: address },
        byName: { type: 'object', additionalProperties: address },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        pairs: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { a: { type: 'integer' } } } },
      },
    },
  },
};

describe('structural defaulting', () => {
  const defaults = SchemaDefaults.compile(schema)!;

  it('fills a missing member, a non-nullable null, and the defaults inside a default, in lists and maps', () => {
    const manifest = { spec: { addresses: [{ value: '1.2.3.4' }, { type: null, options: { mode: 'Slow' } }], byName: { a: {} } } };
    const written = JSON.stringify(manifest);
    expect(defaults.apply(manifest)).toEqual({
      spec: {
        addresses: [
          { type: 'IPAddress', value: '1.2.3.4', options: { mode: 'Fast' } },
          { type: 'IPAddress', options: { mode: 'Slow' } },
        ],
        byName: { a: { type: 'IPAddress', options: { mode: 'Fast' } } },
      },
    });
    expect(JSON.stringify(manifest), 'the manifest itself is never changed').toBe(written);
  });

  it('gives back the same value when nothing is missing, and nothing to compile for a schema without defaults', () => {
    const full = { spec: { addresses: [{ type: 'Hostname', options: { mode: 'Fast' } }] } };
    expect(defaults.apply(full)).toBe(full);
    expect(SchemaDefaults.compile({ type: 'object', properties: { a: { type: 'string' } } })).toBeUndefined();
  });

  it('keeps a member named __proto__ a member of the copy (parsed JSON may hold one)', () => {
    const manifest = JSON.parse('{"spec":{"byName":{"__proto__":{"value":"x"}},"addresses":[]}}');
    const filled = defaults.apply(manifest) as { spec: { byName: Record<string, unknown> } };
    expect(Object.keys(filled.spec.byName)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(filled.spec.byName, '__proto__')!.value).toEqual({
      value: 'x',
      type: 'IPAddress',
      options: { mode: 'Fast' },
    });
    expect(Object.getPrototypeOf(filled.spec.byName)).toBe(Object.prototype);
  });

  it('follows $ref into definitions, and ends at recursive ones', () => {
    const definitions = {
      Node: {
        type: 'object',
        properties: { kind: { type: 'string', default: 'leaf' }, children: { type: 'array', items: { $ref: '#/definitions/Node' } } },
      },
    };
    const tree = SchemaDefaults.compile({ $ref: '#/definitions/Node' }, definitions)!;
    expect(tree.apply({ children: [{ children: [{}] }] })).toEqual({
      kind: 'leaf',
      children: [{ kind: 'leaf', children: [{ kind: 'leaf' }] }],
    });
  });
});

describe('null pruning', () => {
  const nulls = NullPruning.compile(schema);

  it('drops a null the schema does not allow and has no default for; keeps nullable and defaulted ones', () => {
    expect(nulls.apply({ spec: { addresses: [{ value: null, note: null, type: null }], tags: null } })).toEqual({
      spec: { addresses: [{ note: null, type: null }] },
    });
  });

  it('gives back the same value when it holds no null', () => {
    const manifest = { spec: { addresses: [{ value: 'x' }] } };
    expect(nulls.apply(manifest)).toBe(manifest);
  });
});

describe('sets (x-kubernetes-list-type: set)', () => {
  const sets = ListMapKeys.compile(schema);

  it("refuse each repeated element once, at its first repeat, in the API server's words; objects compare with their members in any order", () => {
    expect(sets.check({ spec: { tags: ['a', 'b', 'a', 'a', 'b'], pairs: [{ a: 1 }, { a: 2 }, { a: 1 }] } })).toEqual([
      { pointer: '/spec/tags/2', detail: 'Duplicate value: "a"' },
      { pointer: '/spec/tags/4', detail: 'Duplicate value: "b"' },
      { pointer: '/spec/pairs/2', detail: 'Duplicate value: {"a":1}' },
    ]);
    expect(sets.check({ spec: { tags: ['a', 'b'] } })).toEqual([]);
  });
});
