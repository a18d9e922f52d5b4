/**
 * Patterns and CEL rules whose work is bounded by what they bring: compiled patterns kept
 * by their bytes, not their count; a long literal compiled in linear time; a literal pattern of
 * matches(), find() and findAll() compiled once per rule, not once per call; lists built by map()
 * over thousands of items without exhausting the stack. Asserted on work done (compiles, bytes
 * kept), not on time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  goRe2,
  goRegExp,
  goRegExpError,
  heldBytes,
  PATTERN_CACHE_BYTES,
  PATTERN_INSTRUCTIONS,
  PATTERN_RUNES,
  patternCacheBytes,
} from '../../src/schema/go-regexp.js';
import { check, invalid, specWith } from '../helpers/cel-rules.js';

afterEach(() => vi.restoreAllMocks());

describe('compiled patterns', () => {
  it('are kept up to PATTERN_CACHE_BYTES by their estimated size, whatever their count; a large one is not kept', () => {
    // 100 distinct patterns of about 125 KB each: 12 MB if all were kept.
    const kept = (index: number) => `p${index}` + '\\w'.repeat(300);
    expect(heldBytes(goRegExp(kept(0)))).toBeGreaterThan(100_000);
    for (let index = 1; index < 100; index++) goRegExp(kept(index));
    expect(patternCacheBytes()).toBeGreaterThan(PATTERN_CACHE_BYTES / 2);
    expect(patternCacheBytes()).toBeLessThanOrEqual(PATTERN_CACHE_BYTES);
    // The least recently used went first: the last is kept, the first compiled again.
    const compile = vi.spyOn(goRe2().RE2JS, 'compile');
    goRegExp(kept(99));
    expect(compile).not.toHaveBeenCalled();
    goRegExp(kept(0));
    expect(compile).toHaveBeenCalledTimes(1);
    // Small ones are kept, and a hit is the same program.
    const small = goRegExp('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$');
    expect(goRegExp('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')).toBe(small);
    // A 65,000-character pattern, about 7 MB in V8, is compiled again at each use and never kept.
    const large = '\\w'.repeat(32_500);
    const before = patternCacheBytes();
    expect(heldBytes(goRegExp(large))).toBeGreaterThan(4 * 1024 * 1024);
    expect(goRegExp(large)).not.toBe(goRegExp(large));
    expect(patternCacheBytes()).toBe(before);
  });

  it('refuses, before building it, a program larger than this heap holds: Go compiles up to ten times more', () => {
    // 22 KB of text, 2,000,000 instructions: under Go's 3,355,443, and about 200 MB in V8, past the Deployment's heap.
    const repeats = '[a-z]{1000}'.repeat(2_000);
    expect(goRegExpError(repeats)).toBe(
      `error parsing regexp: expression too large for this server: past ${PATTERN_INSTRUCTIONS} instructions or ${PATTERN_RUNES} runes of character classes, the most it compiles (Go's limits are 3355443 and 33554432); split the pattern, or use narrower classes and fewer repeats`,
    );
    // Character classes of 3,900,000 runes in all: under Go's 33,554,432.
    expect(goRegExpError('\\pL'.repeat(3_000))).toMatch(/too large for this server/);
    // Within both: compiled, as Go compiles it.
    expect(goRegExpError('[a-z]{1000}'.repeat(200))).toBeUndefined();
    expect(goRegExpError('\\pL'.repeat(300))).toBeUndefined();
    // Go's own refusals keep Go's words.
    expect(goRegExpError('a{1001}')).toBe('error parsing regexp: invalid repeat count: `{1001}`');
  });

  it('compiles a 65,000-character literal as Go does, appending its runes (it took 33 s, a copy a rune)', () => {
    const literal = 'x' + 'w'.repeat(64_999);
    const compiled = goRegExp(literal);
    expect(compiled.test(literal)).toBe(true);
    expect(compiled.test(literal.slice(1))).toBe(false);
    // Literals that meet a group, a class or a flag change are kept apart, as Go keeps them.
    expect(goRegExp('^ab(?:cd)ef(?i:gh)ij[k]l$').test('abcdefGHijkl')).toBe(true);
    expect(goRegExp('^ab(?:cd)ef(?i:gh)ij[k]l$').test('abcdefGHIJkl')).toBe(false);
  }, 20_000);
});

describe('regex calls with a literal pattern', () => {
  const items = Array.from({ length: 100 }, (_, index) => `item-${index}`);
  const schema = (rule: string) =>
    specWith({ items: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 12 } } }, [{ rule }]);

  it('compile the pattern once per rule, not at each of 100 items (cel-go compiles it when it plans the rule)', () => {
    const compile = vi.spyOn(goRe2().RE2JS, 'compile');
    for (const rule of [
      "self.items.all(x, x.matches('^item-[0-9]+$'))",
      "self.items.all(x, x.find('[0-9]+') != '')",
      "self.items.all(x, x.findAll('[0-9]', 2).size() > 0)",
    ]) {
      compile.mockClear();
      const compiled = schema(rule);
      expect(check(compiled, { items })).toEqual([]);
      expect(compile.mock.calls.length, rule).toBeLessThanOrEqual(1);
    }
  });

  it('judge as before: a miss, and a pattern read from the object compiled at each call', () => {
    expect(check(schema("self.items.all(x, x.matches('^item-[0-9]$'))"), { items })).toEqual([
      { pointer: '/spec', detail: invalid('object', "failed rule: self.items.all(x, x.matches('^item-[0-9]$'))") },
    ]);
    expect(check(schema('self.items.all(x, x.matches(self.items[0]))'), { items: ['a', 'ba'] })).toEqual([]);
    expect(check(schema("self.items.map(x, x.findAll('[0-9]')) == [['1'], ['2', '3']]"), { items: ['a1', 'b23'] })).toEqual([]);
  });
});

describe('lists a rule builds', () => {
  it('map() over 8,000 characters: the API server accepts it (it overflowed the stack, each + a view over the last)', () => {
    const schema = specWith({ s: { type: 'string', maxLength: 8000 } }, [{ rule: "self.s.split('').map(c, c).all(c, c.size() == 1)" }]);
    expect(check(schema, { s: 'abcdefghij'.repeat(800) })).toEqual([]);
  });

  it('leaves a list unchanged when another is added to it twice', () => {
    const schema = specWith({ l: { type: 'array', items: { type: 'integer' } } }, [
      { rule: 'self.l.map(x, x * 2) + [1] != self.l.map(x, x * 2) + [2]' },
      { rule: '[self.l + [7], self.l + [8]] == [[1, 2, 7], [1, 2, 8]]' },
      { rule: 'self.l.filter(x, x > 1) + self.l == [2, 1, 2]' },
    ]);
    expect(check(schema, { l: [1, 2] })).toEqual([]);
  });
});
