/** Go's strconv.Quote, which field errors, net/netip's and CEL's errors print strings with. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const ESCAPES: Record<string, string> = { '\u0007': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v' };

/** Go's strconv.Quote: printable runes as they are, the rest escaped. */
export function goQuote(text: string): string {
  let quoted = '"';
  for (const rune of text) {
    if (rune === '"' || rune === '\\') quoted += `\\${rune}`;
    else if (PRINTABLE.test(rune)) quoted += rune;
    else if (ESCAPES[rune] !== undefined) quoted += ESCAPES[rune];
    else {
      const code = rune.codePointAt(0)!;
      const hex = code.toString(16);
      quoted += code < 0x80 ? `\\x${hex.padStart(2, '0')}` : code < 0x10000 ? `\\u${hex.padStart(4, '0')}` : `\\U${hex.padStart(8, '0')}`;
    }
  }
  return `${quoted}"`;
}
