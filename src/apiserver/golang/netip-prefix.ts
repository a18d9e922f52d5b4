/**
 * Go's netip.Prefix (Go 1.26): ParsePrefix with its error texts, Masked, Contains and Overlaps, as
 * Kubernetes' CEL cidr library runs them. Strings are "binary" (one char a UTF-8 byte).
 */
import { type Addr, addrString, goQuoteBytes, parseAddr } from './netip.js';

export interface Prefix {
  addr: Addr;
  bits: number;
}

/** netip.ParsePrefix: an address, `/`, a decimal prefix length its family allows; else Go's error text. */
export function parsePrefix(s: string): Prefix | string {
  const fail = (msg: string) => `netip.ParsePrefix(${goQuoteBytes(s)}): ${msg}`;
  const slash = s.lastIndexOf('/');
  if (slash < 0) return fail("no '/'");
  const addr = parseAddr(s.slice(0, slash));
  if (typeof addr === 'string') return fail(addr);
  if (!addr.is4 && addr.zone !== '') return fail('IPv6 zones cannot be present in a prefix');
  const bitsText = s.slice(slash + 1);
  // No sign, no leading zero, and strconv.Atoi's int64 range: else the text is not a length.
  const badBits = fail(`bad bits after slash: ${goQuoteBytes(bitsText)}`);
  if (!/^[0-9]+$/.test(bitsText) || (bitsText.length > 1 && bitsText[0] === '0')) return badBits;
  const bits = BigInt(bitsText);
  if (bits > 2n ** 63n - 1n) return badBits;
  if (bits > (addr.is4 ? 32n : 128n)) return fail('prefix length out of range');
  return { addr, bits: Number(bits) };
}

/** The address with every bit past the first `bits` of its family cleared (Addr.Prefix). */
function maskedAddr(addr: Addr, bits: number): Addr {
  const first = addr.is4 ? bits + 96 : bits;
  const bytes = addr.bytes.map((byte, i) => {
    const keep = Math.min(8, Math.max(0, first - 8 * i));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
  return { bytes, is4: addr.is4, zone: '' };
}

const sameAddr = (a: Addr, b: Addr): boolean => a.is4 === b.is4 && a.zone === b.zone && a.bytes.every((byte, i) => byte === b.bytes[i]);

/** Prefix.Masked: the network address and the same length. */
export const masked = (prefix: Prefix): Prefix => ({ addr: maskedAddr(prefix.addr, prefix.bits), bits: prefix.bits });

/** Prefix.Contains: an address of the same family (never one with a zone) whose first `bits` bits match. */
export function contains(prefix: Prefix, ip: Addr): boolean {
  if (ip.zone !== '' || ip.is4 !== prefix.addr.is4) return false;
  return sameAddr(maskedAddr(ip, prefix.bits), maskedAddr(prefix.addr, prefix.bits));
}

/** Prefix.Overlaps: both of one family and equal over the shorter length. */
export function overlaps(p: Prefix, o: Prefix): boolean {
  if (p.addr.is4 !== o.addr.is4) return false;
  const bits = Math.min(p.bits, o.bits);
  return bits === 0 || sameAddr(maskedAddr(p.addr, bits), maskedAddr(o.addr, bits));
}

/** Prefix.String: `address/length`. */
export const prefixString = (prefix: Prefix): string => `${addrString(prefix.addr)}/${prefix.bits}`;
