/**
 * The strings extension's replace() as cel-go runs it (Go's strings.Replace): in one pass, linear
 * in what it builds. @bufbuild/cel's copies the string it has built so far at each match, so
 * `self.replace('a', self)` on 5,000 characters ran for a minute; the API server prices replace by
 * its receiver alone and lets such a rule run, so it must be as cheap here. Go's meaning too: a
 * negative count replaces all, an empty pattern inserts before each character and at the end.
 */
import type { CelFunc } from '@bufbuild/cel';

type Cel = typeof import('@bufbuild/cel');

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

/** The overloads of replace, to list after @bufbuild/cel's strings extension, whose own they take the place of. */
export function goStrings(cel: Cel): CelFunc[] {
  const { STRING, INT } = cel.CelScalar;
  return [
    cel.celMethod('replace', STRING, [STRING, STRING], STRING, function (this: string, from: string, to: string) {
      return replace(this, from, to);
    }),
    cel.celMethod('replace', STRING, [STRING, STRING, INT], STRING, function (this: string, from: string, to: string, limit: bigint) {
      return replace(this, from, to, limit);
    }),
  ];
}
