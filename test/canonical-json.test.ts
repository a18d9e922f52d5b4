import { readFileSync } from 'node:fs';
import path from 'node:path';
import canonicalizeModule from 'canonicalize';
import { globSync } from 'glob';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/bundle/canonical-json.js';

// The canonicalize package, which bundle digests were taken with before: the reference.
const canonicalize = ((canonicalizeModule as unknown as { default?: unknown }).default ?? canonicalizeModule) as (value: unknown) => string;
const ROOT = path.resolve(import.meta.dirname, '..');

describe('canonical JSON (RFC 8785) of bundle digests', () => {
  it('is the text of the canonicalize package for every bundle in dist/ and every file in repos/', () => {
    const files = globSync(['dist/**/bundle.json', 'repos/**/*.json'], { cwd: ROOT, absolute: true });
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
      expect(canonicalJson(value), file).toBe(canonicalize(value));
    }
  });

  it('sorts members by UTF-16 code units, integer-like names too, and writes numbers and strings as the package does', () => {
    const value = {
      b: [1, -0, 1e21, 1e-7, 0.1 + 0.2, 'é\u2028"\\\n', null, true, undefined],
      '10': { '\u{1F600}': 1, '\uFFFD': 2, é: 3, Z: 4 },
      '2': [],
      a: { skipped: undefined, nested: [{ y: 1, x: [{}] }] },
      '': 'empty name',
    };
    expect(canonicalJson(value)).toBe(canonicalize(value));
    expect(canonicalJson(value).startsWith('{"":"empty name","10":{"Z":4,')).toBe(true);
  });

  it('refuses what has no canonical form, as the package does', () => {
    for (const value of [NaN, { a: Infinity }, ['\ud800'], { '\udc00x': 1 }]) {
      expect(() => canonicalJson(value)).toThrow();
      expect(() => canonicalize(value)).toThrow();
    }
  });
});
