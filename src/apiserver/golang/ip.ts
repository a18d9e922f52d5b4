/**
 * IP addresses as the API server parses them in legacy fields (k8s.io/utils/net ParseIPSloppy, Go
 * 1.16's net.ParseIP): IPv4 parts may have leading zeros, IPv6 may embed an IPv4 tail, and an
 * IPv4-mapped IPv6 address counts as IPv4.
 */

/** The 16 bytes of an address, or undefined when it is not one. */
export type IPBytes = number[];

function parseIPv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^[0-9]+$/.test(part)) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    bytes.push(value);
  }
  return bytes;
}

function parseIPv6(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string): number[] | undefined => {
    if (half === '') return [];
    const bytes: number[] = [];
    const fields = half.split(':');
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      if (i === fields.length - 1 && field.includes('.')) {
        const v4 = parseIPv4(field);
        if (v4 === undefined) return undefined;
        bytes.push(...v4);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(field)) return undefined;
        const value = parseInt(field, 16);
        bytes.push(value >> 8, value & 0xff);
      }
    }
    return bytes;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (head === undefined || tail === undefined) return undefined;
  // An embedded IPv4 tail may only end the address.
  if (halves.length === 2 && halves[0]!.includes('.')) return undefined;
  if (halves.length === 1) return head.length === 16 ? head : undefined;
  const missing = 16 - head.length - tail.length;
  return missing >= 2 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : undefined;
}

const V4_IN_V6 = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

export function parseIPSloppy(text: string): IPBytes | undefined {
  const v4 = /^[0-9.]+$/.test(text) ? parseIPv4(text) : undefined;
  if (v4 !== undefined) return [...V4_IN_V6, ...v4];
  return text.includes(':') ? parseIPv6(text) : undefined;
}

/** Go's ip.To4() != nil: an IPv4 address, or IPv4-mapped IPv6. */
export const isIPv4 = (ip: IPBytes): boolean => V4_IN_V6.every((byte, i) => ip[i] === byte);

export const isIPv6String = (text: string): boolean => {
  const ip = parseIPSloppy(text);
  return ip !== undefined && !isIPv4(ip);
};

export function isUnspecified(ip: IPBytes): boolean {
  return isIPv4(ip) ? ip.slice(12).every((byte) => byte === 0) : ip.every((byte) => byte === 0);
}

export function isLoopback(ip: IPBytes): boolean {
  return isIPv4(ip) ? ip[12] === 127 : ip.slice(0, 15).every((byte) => byte === 0) && ip[15] === 1;
}

export function isLinkLocalUnicast(ip: IPBytes): boolean {
  return isIPv4(ip) ? ip[12] === 169 && ip[13] === 254 : ip[0] === 0xfe && (ip[1]! & 0xc0) === 0x80;
}

export function isLinkLocalMulticast(ip: IPBytes): boolean {
  return isIPv4(ip) ? ip[12] === 224 && ip[13] === 0 && ip[14] === 0 : ip[0] === 0xff && (ip[1]! & 0x0f) === 0x02;
}

/** Go's net.ParseCIDR with sloppy IPv4 parts: an address, '/', and a prefix length its family allows. */
export function parseCIDRSloppy(text: string): { ip: IPBytes; bits: number } | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIPSloppy(text.slice(0, slash));
  const length = text.slice(slash + 1);
  if (ip === undefined || !/^[0-9]+$/.test(length) || length.length > 3) return undefined;
  const bits = Number(length);
  const v4 = !text.slice(0, slash).includes(':');
  return bits <= (v4 ? 32 : 128) ? { ip, bits } : undefined;
}
