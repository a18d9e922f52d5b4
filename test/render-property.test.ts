/** Property tests: rendering arbitrary input never fails with anything but a RenderError, and never evaluates caller values. */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBundles, type LoadedCollection } from '../src/bundle/load.js';
import { execute } from '../src/exec/execute.js';
import { RenderError } from '../src/request/problems.js';
import { buildInto } from './helpers/build.js';
import { SHIPPED_REPOS } from './helpers/repos.js';

let collections: LoadedCollection[];
beforeAll(async () => {
  collections = loadBundles(await buildInto(SHIPPED_REPOS)).flatMap((loaded) => [...loaded.collections.values()]);
}, 60_000);

const hostileKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'metadata',
  'spec',
  'name',
  '0',
  'toString',
  '{{ __SVC_ID__.metadata }}',
);
const placeholderText = fc.constantFrom('{{ __SVC_ID__.metadata }}', '{{__CRD_ID__.spec}}', '{{ x', '}} {{', '{{ __A__.b ?? __A__.c }}');
const leaf = fc.oneof(fc.string(), placeholderText, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), hostileKey), tie('node'), { maxKeys: 5 }),
  ),
})).node;

function stringsOf(node: unknown, into: Set<string>): Set<string> {
  if (typeof node === 'string') into.add(node);
  else if (Array.isArray(node)) node.forEach((item) => stringsOf(item, into));
  else if (node && typeof node === 'object') Object.values(node).forEach((member) => stringsOf(member, into));
  return into;
}

function withStrings(node: unknown, replace: (text: string) => string): unknown {
  if (typeof node === 'string') return replace(node);
  if (Array.isArray(node)) return node.map((item) => withStrings(item, replace));
  if (node && typeof node === 'object')
    return Object.fromEntries(Object.entries(node).map(([key, member]) => [key, withStrings(member, replace)]));
  return node;
}

describe('rendering arbitrary values', () => {
  it('returns a manifest or throws a RenderError, and never changes Object.prototype', () => {
    const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
    fc.assert(
      fc.property(
        fc.nat(),
        fc.oneof(
          value,
          fc.record(
            {
              facets: fc.oneof(
                value,
                fc.array(fc.oneof(fc.string(), fc.constantFrom('master', 'addon:spec', 'addon:ports'), fc.integer())),
              ),
              values: value,
              globalvars: value,
            },
            { requiredKeys: [] },
          ),
        ),
        fc.boolean(),
        (pick, body, strict) => {
          const collection = collections[pick % collections.length]!;
          // Through JSON, as an HTTP body arrives: "__proto__" becomes an own member.
          const parsed = JSON.parse(JSON.stringify(body) ?? 'null');
          try {
            const result = execute(collection, parsed, { strict });
            expect(typeof result.manifest).toBe('object');
          } catch (error) {
            if (!(error instanceof RenderError)) throw error;
            expect(error.problems.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 3000 },
    );
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('outputs strings from caller values verbatim, even when they look like placeholders', () => {
    fc.assert(
      fc.property(fc.nat(), fc.array(fc.oneof(placeholderText, fc.string()), { minLength: 1 }), (pick, texts) => {
        const collection = collections[pick % collections.length]!;
        const example = collection.collection.examples[pick % collection.collection.examples.length]!;
        let next = 0;
        const injected = withStrings(example.request.values, (text) => `${texts[next++ % texts.length]}${text}`);
        try {
          const { manifest } = execute(collection, { ...example.request, values: injected });
          const allowed = new Set([
            ...stringsOf(injected, new Set()),
            ...stringsOf(
              collection.collection.sections.map((s) => s.content),
              new Set(),
            ),
          ]);
          for (const text of stringsOf(manifest, new Set())) expect(allowed.has(text), text).toBe(true);
        } catch (error) {
          // Prefixing a string can break an enum or a format; that is a RenderError, never an evaluation.
          if (!(error instanceof RenderError)) throw error;
        }
      }),
      { numRuns: 1000 },
    );
  });
});
