/**
 * String functions as cheap as cel-go's, since the API server prices them so: the strings
 * extension's replace() (Go's strings.Replace) in one pass, linear in what it builds, where
 * @bufbuild/cel's copies the string it has built at each match (`self.replace('a', self)` on 5,000
 * characters ran for a minute; the API server prices replace by its receiver alone and lets that
 * rule run); Go's meaning too: a negative count replaces all, an empty pattern inserts before each
 * character and at the end. And size() of a string counted, not copied into an array of characters.
 */
import type { CelFunc } from '@bufbuild/cel';

type Cel = typeof import('@bufbuild/cel');

/** Code points, as Go counts a string's size. */
export function runes(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

export function replace(text: string, from: string, to: string, limit = -1n): string {
  if (from === to || limit === 0n) return text;
  const most = limit < 0n ? Infinity : Number(limit);
  if (from === '') {
    const characters = [...text];
    const inserts = Math.min(most, characters.length + 1);
    return (
      characters
        .slice(0, inserts - 1)
        .map((character) => to + character)
        .join('') +
      to +
      characters.slice(inserts - 1).join('')
    );
  }
  const parts: string[] = [];
  let at = 0;
  while (parts.length < most) {
    const found = text.indexOf(from, at);
    if (found < 0) break;
    parts.push(text.slice(at, found));
    at = found + from.length;
  }
  parts.push(text.slice(at));
  return parts.join(to);
}

/** The overloads of replace and size, to list after @bufbuild/cel's own, whose place they take. */
export function goStrings(cel: Cel): CelFunc[] {
  const { STRING, INT } = cel.CelScalar;
  return [
    cel.celFunc('size', [STRING], INT, (text: string) => BigInt(runes(text))),
    cel.celMethod('size', STRING, [], INT, function (this: string) {
      return BigInt(runes(this));
    }),
    cel.celMethod('replace', STRING, [STRING, STRING], STRING, function (this: string, from: string, to: string) {
      return replace(this, from, to);
    }),
    cel.celMethod('replace', STRING, [STRING, STRING, INT], STRING, function (this: string, from: string, to: string, limit: bigint) {
      return replace(this, from, to, limit);
    }),
  ];
}
