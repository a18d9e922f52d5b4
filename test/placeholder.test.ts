import { describe, expect, it } from 'vitest';
import { parseTemplate, PlaceholderSyntaxError } from '../src/template/placeholder.js';

function syntaxError(text: string): PlaceholderSyntaxError {
  try {
    parseTemplate(text);
  } catch (error) {
    if (error instanceof PlaceholderSyntaxError) return error;
    throw error;
  }
  throw new Error(`"${text}" parsed`);
}

describe('placeholder syntax', () => {
  it('reads a string without "{{" as a literal', () => {
    expect(parseTemplate('plain }} text')).toEqual({ kind: 'literal', text: 'plain }} text' });
  });

  it('reads a whole-string placeholder with or without spaces inside the braces', () => {
    const expected = {
      kind: 'whole',
      expression: { source: '__SVC_ID__.spec.ports', references: [{ variable: '__SVC_ID__', path: ['spec', 'ports'] }] },
    };
    expect(parseTemplate('{{ __SVC_ID__.spec.ports }}')).toEqual(expected);
    expect(parseTemplate('{{__SVC_ID__.spec.ports}}')).toEqual(expected);
  });

  it('reads alternatives joined by ??', () => {
    const parsed = parseTemplate('{{ __SC_ID__.spec.provisioner ?? __SC_ID__.provisioner }}');
    expect(parsed.kind === 'whole' && parsed.expression.references.map((r) => r.path)).toEqual([['spec', 'provisioner'], ['provisioner']]);
  });

  it('reads placeholders inside longer text as an interpolation', () => {
    const parsed = parseTemplate('{{ __A_1__.host }}:{{ __A_1__.ports.0 }}');
    expect(parsed.kind).toBe('interpolation');
    expect(
      parsed.kind === 'interpolation' && parsed.parts.map((part) => (typeof part === 'string' ? part : part.references[0]!.path.join('.'))),
    ).toEqual(['host', ':', 'ports.0']);
  });

  it.each([
    ['{{ __SVC_ID__.spec.ports }', 'placeholder opened with "{{" is not closed with "}}"', 0],
    ['a {{ b {{ __X__.c }}', 'placeholder opened with "{{" is not closed with "}}"', 2],
    ['{{ }}', 'empty placeholder "{{}}"', 0],
    ['{{ __svc__.a }}', '"__svc__.a" does not start with a template variable', 0],
    ['{{ SVC.a }}', '"SVC.a" does not start with a template variable', 0],
    ['{{ __SVC__ }}', '"__SVC__" names a variable but no path', 0],
    ['{{ __SVC__.a..b }}', '"__SVC__.a..b" has an invalid path segment ""', 0],
    ['{{ __SVC__.a[0] }}', '"__SVC__.a[0]" has an invalid path segment "a[0]"', 0],
    ['{{ __SVC__.a ?? }}', '"__SVC__.a ??" has an empty alternative around "??"', 0],
    ['{{ __SVC__.a | upper }}', '"__SVC__.a | upper" has an invalid path segment "a | upper"', 0],
  ])('rejects %s', (text, message, offset) => {
    const error = syntaxError(text);
    expect(error.message).toBe(message);
    expect(error.offset).toBe(offset);
    expect(error.hint.length).toBeGreaterThan(10);
  });
});
