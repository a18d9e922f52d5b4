/**
 * Go's net/netip ParseAddr, which net/url runs on a bracketed host, and strconv.Quote of Go bytes,
 * which both print their errors with. Strings are "binary" here: one char a UTF-8 byte.
 */
import { goQuote } from '../field-error.js';

/** strconv.Quote of Go bytes: runes as goQuote prints them, a byte that starts no valid rune as \xNN. */
export function goQuoteBytes(bytes: string): string {
  const buffer = Buffer.from(bytes, 'latin1');
  let quoted = '';
  for (let i = 0; i < buffer.length;) {
    const lead = buffer[i]!;
    const size = lead < 0x80 ? 1 : lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead >= 0xf0 && lead < 0xf5 ? 4 : 0;
    const bytesOfRune = buffer.subarray(i, i + size);
    const rune = bytesOfRune.toString('utf8');
    // A valid encoding decodes to one rune that encodes back to the same bytes (no overlong form, no surrogate).
    if (size > 0 && i + size <= buffer.length && [...rune].length === 1 && Buffer.from(rune, 'utf8').equals(bytesOfRune)) {
      quoted += goQuote(rune).slice(1, -1);
      i += size;
    } else {
      quoted += `\\x${lead.toString(16).padStart(2, '0')}`;
      i += 1;
    }
  }
  return `"${quoted}"`;
}

export const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9A-Fa-f]$/.test(c);

/** netip.ParseAddr: 4 or 6 for an address (an IPv4-mapped IPv6 one is 6), else Go's error text. */
export function parseAddr(s: string): 4 | 6 | string {
  const fail = (msg: string, at = ''): string => `ParseAddr(${goQuoteBytes(s)}): ${msg}${at === '' ? '' : ` (at ${goQuoteBytes(at)})`}`;
  for (const c of s) {
    if (c === '.') return parseIPv4Fields(s, 0, s.length, fail) ?? 4;
    if (c === ':') return parseIPv6(s, fail);
    if (c === '%') return fail('missing IPv6 address');
  }
  return fail('unable to parse IP');
}

type Fail = (msg: string, at?: string) => string;

function parseIPv4Fields(input: string, off: number, end: number, fail: Fail): string | undefined {
  const s = input.slice(off, end);
  let value = 0;
  let digits = 0;
  let pos = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c >= '0' && c <= '9') {
      if (digits === 1 && value === 0) return fail('IPv4 field has octet with leading zero');
      value = value * 10 + Number(c);
      digits++;
      if (value > 255) return fail('IPv4 field has value >255');
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') return fail('IPv4 field must have at least one digit', s.slice(i));
      if (pos === 3) return fail('IPv4 address too long');
      pos++;
      value = 0;
      digits = 0;
    } else return fail('unexpected character', s.slice(i));
  }
  return pos < 3 ? fail('IPv4 address too short') : undefined;
}

function parseIPv6(input: string, fail: Fail): 6 | string {
  let s = input;
  const percent = s.indexOf('%');
  const zone = percent < 0 ? '' : s.slice(percent + 1);
  if (percent >= 0) {
    if (zone === '') return fail('zone must be a non-empty string');
    s = s.slice(0, percent);
  }
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return 6;
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length && isHex(s[off]); off++) {
      acc = acc * 16 + parseInt(s[off]!, 16);
      if (off > 3) return fail('each group must have 4 or less digits', s);
      if (acc > 0xffff) return fail('IPv6 field has value >=2^16', s);
    }
    if (off === 0) return fail('each colon-separated field must have at least one digit', s);
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) return fail('embedded IPv4 address must replace the final 2 fields of the address', s);
      if (i + 4 > 16) return fail('too many hex fields to fit an embedded IPv4 at the end of the address', s);
      const end = input.length - (zone.length > 0 ? zone.length + 1 : 0);
      const error = parseIPv4Fields(input, end - s.length, end, fail);
      if (error !== undefined) return error;
      s = '';
      i += 4;
      break;
    }
    i += 2;
    s = s.slice(off);
    if (s === '') break;
    if (s[0] !== ':') return fail('unexpected character, want colon', s);
    if (s.length === 1) return fail('colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return fail('multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s.length !== 0) return fail('trailing garbage after address', s);
  if (i < 16 && ellipsis < 0) return fail('address string too short');
  if (i >= 16 && ellipsis >= 0) return fail('the :: must expand to at least one field of zeros');
  return 6;
}
