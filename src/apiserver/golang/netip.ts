/**
 * Go's net/netip addresses (Go 1.26): ParseAddr with its error texts, which net/url runs on a
 * bracketed host and Kubernetes' CEL ip() and cidr() quote, and an address's String and kind. And
 * strconv.Quote of Go bytes, which those errors print with. Strings are "binary" here: one char a
 * UTF-8 byte (toBytes in url.ts).
 */
import { goQuote } from './strconv.js';

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

/** A netip.Addr: 16 bytes (an IPv4 address as Go holds it, IPv4-mapped), whether it is IPv4, its zone. */
export interface Addr {
  bytes: number[];
  is4: boolean;
  zone: string;
}

const V4_IN_V6 = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/** netip.ParseAddr: the address, or Go's error text. */
export function parseAddr(s: string): Addr | string {
  const fail = (msg: string, at = ''): string => `ParseAddr(${goQuoteBytes(s)}): ${msg}${at === '' ? '' : ` (at ${goQuoteBytes(at)})`}`;
  for (const c of s) {
    if (c === '.') {
      const v4: number[] = [];
      const error = parseIPv4Fields(s, 0, s.length, v4, fail);
      return error ?? { bytes: [...V4_IN_V6, ...v4], is4: true, zone: '' };
    }
    if (c === ':') return parseIPv6(s, fail);
    if (c === '%') return fail('missing IPv6 address');
  }
  return fail('unable to parse IP');
}

type Fail = (msg: string, at?: string) => string;

function parseIPv4Fields(input: string, off: number, end: number, fields: number[], fail: Fail): string | undefined {
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
      fields[pos++] = value;
      value = 0;
      digits = 0;
    } else return fail('unexpected character', s.slice(i));
  }
  if (pos < 3) return fail('IPv4 address too short');
  fields[3] = value;
  return undefined;
}

function parseIPv6(input: string, fail: Fail): Addr | string {
  let s = input;
  const percent = s.indexOf('%');
  const zone = percent < 0 ? '' : s.slice(percent + 1);
  if (percent >= 0) {
    if (zone === '') return fail('zone must be a non-empty string');
    s = s.slice(0, percent);
  }
  const ip = new Array<number>(16).fill(0);
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return { bytes: ip, is4: false, zone };
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
      const v4: number[] = [];
      const error = parseIPv4Fields(input, end - s.length, end, v4, fail);
      if (error !== undefined) return error;
      ip.splice(i, 4, ...v4);
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
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
  if (i < 16) {
    if (ellipsis < 0) return fail('address string too short');
    // The groups after the ellipsis move to the end; zeros fill the gap.
    const tail = ip.slice(ellipsis, i);
    ip.fill(0, ellipsis);
    ip.splice(16 - tail.length, tail.length, ...tail);
  } else if (ellipsis >= 0) return fail('the :: must expand to at least one field of zeros');
  return { bytes: ip, is4: false, zone };
}

/** Addr.Is4In6: an IPv6 address of the ::ffff:0:0/96 block. */
export const is4In6 = (ip: Addr): boolean => !ip.is4 && V4_IN_V6.every((byte, i) => ip.bytes[i] === byte);

/** Addr.String: dotted IPv4; IPv6 with the longest run of two or more zero groups as `::`, a zone after `%`. */
export function addrString(ip: Addr): string {
  const v4 = ip.bytes.slice(12).join('.');
  if (ip.is4) return v4;
  const zone = ip.zone === '' ? '' : `%${ip.zone}`;
  if (is4In6(ip)) return `::ffff:${v4}${zone}`;
  const groups = Array.from({ length: 8 }, (_, i) => (ip.bytes[2 * i]! << 8) | ip.bytes[2 * i + 1]!);
  let [zeroStart, zeroEnd] = [-1, -1];
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i >= 2 && j - i > zeroEnd - zeroStart) [zeroStart, zeroEnd] = [i, j];
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === zeroStart) {
      out += '::';
      i = zeroEnd;
      if (i >= 8) break;
    } else if (i > 0) out += ':';
    out += groups[i]!.toString(16);
  }
  return out + zone;
}

/** The address without its IPv4 mapping (Addr.Unmap): what netip's Is* methods look at. */
const unmapped = (ip: Addr): { v4: boolean; b: number[] } =>
  ip.is4 || is4In6(ip) ? { v4: true, b: ip.bytes.slice(12) } : { v4: false, b: ip.bytes };

export const isUnspecified = (ip: Addr): boolean =>
  ip.zone === '' && ip.bytes.every((byte, i) => (ip.is4 && i >= 10 && i < 12 ? byte === 0xff : byte === 0));

export function isLoopback(ip: Addr): boolean {
  const { v4, b } = unmapped(ip);
  return v4 ? b[0] === 127 : b.slice(0, 15).every((byte) => byte === 0) && b[15] === 1;
}

export function isMulticast(ip: Addr): boolean {
  const { v4, b } = unmapped(ip);
  return v4 ? (b[0]! & 0xf0) === 0xe0 : b[0] === 0xff;
}

export function isLinkLocalUnicast(ip: Addr): boolean {
  const { v4, b } = unmapped(ip);
  return v4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && (b[1]! & 0xc0) === 0x80;
}

export function isLinkLocalMulticast(ip: Addr): boolean {
  const { v4, b } = unmapped(ip);
  return v4 ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && (b[1]! & 0x0f) === 0x02;
}

/** Addr.IsGlobalUnicast: not unspecified, IPv4 broadcast, loopback, multicast or link-local (private blocks count). */
export function isGlobalUnicast(ip: Addr): boolean {
  const { v4, b } = unmapped(ip);
  if (v4 && (b.every((byte) => byte === 0) || b.every((byte) => byte === 255))) return false;
  const v6Unspecified = !ip.is4 && ip.zone === '' && ip.bytes.every((byte) => byte === 0);
  return !v6Unspecified && !isLoopback(ip) && !isMulticast(ip) && !isLinkLocalUnicast(ip);
}
