/** The problems of a request, however many (the first in body order, the rest counted, in linear time), and what bounds an answer and the bytes in flight. */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  AnswerTooLarge,
  formatManifest,
  formatManifestList,
  KUBERNETES_OBJECT_LIMIT_BYTES,
  ObjectTooLarge,
} from '../src/manifest/format.js';
import { comparePointers, firstInBodyOrder, LISTED_PROBLEMS, renderError } from '../src/request/problems.js';
import { appendErrorsInPlace } from '../src/kubernetes/append-errors.js';
import { InflightBytes } from '../src/server/inflight-bytes.js';

/** The order of a full sort by segments, as problems were ordered before (indexes by value). */
function bySegments(a: string, b: string): number {
  const [left, right] = [a.split('/'), b.split('/')];
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const [x, y] = [left[index]!, right[index]!];
    if (x === y) continue;
    if (/^\d+$/.test(x) && /^\d+$/.test(y)) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return left.length - right.length;
}

const SEGMENTS = ['a', 'ab', 'b', '0', '1', '2', '9', '10', '100', 'a~1b', 'a.b', '', 'é', 'Z'];
const randomPointer = (random: () => number) =>
  Array.from({ length: Math.floor(random() * 5) }, () => `/${SEGMENTS[Math.floor(random() * SEGMENTS.length)]}`).join('');
/** A small deterministic generator, so a failure repeats. */
function seeded(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('problems in body order', () => {
  it('orders pointers segment by segment, a parent before its members, indexes by value', () => {
    expect(comparePointers('/facets/9', '/facets/10')).toBeLessThan(0);
    expect(comparePointers('/values/a', '/values/a/b')).toBeLessThan(0);
    expect(comparePointers('/values/a/b', '/values/a.b')).toBeLessThan(0);
    expect(comparePointers('', '/facets')).toBeLessThan(0);
    const random = seeded(14);
    for (let run = 0; run < 20_000; run++) {
      const [a, b] = [randomPointer(random), randomPointer(random)];
      expect(Math.sign(comparePointers(a, b)), `${a} vs ${b}`).toBe(Math.sign(bySegments(a, b)));
    }
  });

  it('lists the first LISTED_PROBLEMS of a long list in body order, as a full sort would, and counts the rest', () => {
    const random = seeded(3);
    const problems = Array.from({ length: 5000 }, (_, index) => ({ pointer: `${randomPointer(random)}/${index}`, detail: 'is wrong' }));
    const sorted = [...problems].sort((a, b) => bySegments(a.pointer, b.pointer));
    expect(firstInBodyOrder(problems, LISTED_PROBLEMS)).toEqual(sorted.slice(0, LISTED_PROBLEMS));
    const error = renderError('Invalid input values', problems);
    expect(error.problems).toEqual(sorted.slice(0, LISTED_PROBLEMS));
    expect(error.more).toBe(5000 - LISTED_PROBLEMS);
    expect(error.message).toBe('Invalid input values (5000 problems)');
  });
});

describe('ajv errors appended in place', () => {
  const schema = {
    definitions: {
      port: { type: 'object', required: ['port'], properties: { port: { type: 'integer' }, name: { $ref: '#/definitions/name' } } },
      name: { type: 'string', maxLength: 3 },
    },
    type: 'object',
    properties: {
      ports: { type: 'array', items: { $ref: '#/definitions/port' } },
      more: { type: 'array', items: { $ref: '#/definitions/port' } },
    },
  };
  const value = { ports: [{ port: 'x', name: 'long' }, {}, { port: 1, name: 7 }], more: [{ name: 'longer' }, 3] };

  it('finds the same errors, in the same order, as ajv alone', () => {
    const stock = new Ajv({ allErrors: true }).compile(schema);
    const appending = new Ajv({ allErrors: true, code: { process: appendErrorsInPlace } }).compile(schema);
    expect(stock(value)).toBe(false);
    expect(appending(value)).toBe(false);
    expect(appending.errors).toEqual(stock.errors);
    expect(appending.errors!.length).toBeGreaterThan(5);
  });

  it("rewrites every merge of a referenced schema's errors", () => {
    const code = 'if (!validate1(data)) { vErrors = vErrors === null ? validate1.errors : vErrors.concat(validate1.errors); }';
    expect(appendErrorsInPlace(code)).not.toContain('.concat(');
    expect(appendErrorsInPlace('return true;')).toBe('return true;');
  });
});

describe('answers within limits', () => {
  const manifest = (name: string, data: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
  const limits = (maxBytes: number) => ({ maxBytes, maxObjectBytes: KUBERNETES_OBJECT_LIMIT_BYTES });

  it('writes a List as JSON.stringify would, and YAML documents each after ---', () => {
    const manifests = [manifest('a'), manifest('b', { k: 'v' })];
    expect(formatManifestList(manifests, 'json', limits(1024))).toBe(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: manifests }));
    expect(formatManifestList(manifests, 'yaml', limits(1024))).toBe(
      manifests.map((item) => `---\n${formatManifest(item, 'yaml')}`).join(''),
    );
  });

  it('stops at the manifest that takes the answer past its bytes, saying what came before', () => {
    const manifests = [manifest('a', { k: 'x'.repeat(600) }), manifest('b', { k: 'y'.repeat(600) })];
    for (const format of ['json', 'yaml'] as const) {
      const error = (() => {
        try {
          formatManifestList(manifests, format, limits(1000));
        } catch (thrown) {
          return thrown;
        }
      })() as AnswerTooLarge;
      expect(error).toBeInstanceOf(AnswerTooLarge);
      expect(error).toMatchObject({ limit: 1000, index: 1 });
      expect(error.before).toBeGreaterThan(600);
    }
  });

  it('refuses an object whose JSON Kubernetes would refuse, in either format', () => {
    const big = manifest('big', { a: 'x'.repeat(KUBERNETES_OBJECT_LIMIT_BYTES / 2), b: 'y'.repeat(KUBERNETES_OBJECT_LIMIT_BYTES / 2) });
    for (const format of ['json', 'yaml'] as const) {
      expect(() => formatManifestList([manifest('a'), big], format, limits(16 * 1024 * 1024))).toThrow(ObjectTooLarge);
    }
    expect(formatManifest(big, 'json').length).toBeGreaterThan(KUBERNETES_OBJECT_LIMIT_BYTES);
  });
});

describe('bytes in flight', () => {
  it('reserves up to the limit, one owner at most half, and frees what is released', () => {
    const inflight = new InflightBytes(100);
    expect(inflight.reserve('a', 50)).toBe(true);
    expect(inflight.reserve('a', 1)).toBe(false);
    expect(inflight.reserve('b', 40)).toBe(true);
    expect(inflight.reserve('c', 20)).toBe(false);
    inflight.release('a', 50);
    expect(inflight.reserve('c', 20)).toBe(true);
    expect(inflight.total).toBe(60);
  });
});
