/**
 * Kubernetes' CEL ip library (k8s.io/apiserver/pkg/cel/library/ip.go): ip(), isIP(),
 * ip.isCanonical(), family() and the kind of an address, string(ip). Addresses are Go's
 * netip.ParseAddr's, refusing what Kubernetes refuses: zones and IPv4-mapped IPv6.
 */
import { goQuote } from '../../apiserver/golang/strconv.js';
import { toBytes } from '../../apiserver/golang/url.js';
import {
  type Addr,
  addrString,
  is4In6,
  isGlobalUnicast,
  isLinkLocalMulticast,
  isLinkLocalUnicast,
  isLoopback,
  isUnspecified,
  parseAddr,
} from '../../apiserver/golang/netip.js';
import { type Library, orThrow } from './opaque.js';

/** parseIPAddr: the address, or Kubernetes' error text. */
export function parseIP(text: string): Addr | string {
  const addr = parseAddr(toBytes(text));
  if (typeof addr === 'string') return `IP Address ${goQuote(text)} parse error during conversion from string: ${addr}`;
  if (addr.zone !== '') return `IP address ${goQuote(text)} with zone value is not allowed`;
  if (is4In6(addr)) return `IPv4-mapped IPv6 address ${goQuote(text)} is not allowed`;
  return addr;
}

export const ipLibrary: Library = ({ cel }, types) => {
  const { celFunc, celMethod } = cel;
  const { STRING, BOOL, INT } = cel.CelScalar;
  const IP = types['net.IP'];
  const addr = (value: unknown) => IP.value(value as never) as Addr;
  const is = (name: string, test: (ip: Addr) => boolean) =>
    celMethod(name, IP.type, [], BOOL, function () {
      return test(addr(this));
    });
  return [
    celFunc('ip', [STRING], IP.type, (text) => {
      const parsed = orThrow(parseIP(text));
      return IP.of(addrString(parsed), parsed);
    }),
    celFunc('isIP', [STRING], BOOL, (text) => typeof parseIP(text) !== 'string'),
    celFunc('ip.isCanonical', [STRING], BOOL, (text) => addrString(orThrow(parseIP(text))) === text),
    celMethod('family', IP.type, [], INT, function () {
      return addr(this).is4 ? 4n : 6n;
    }),
    is('isUnspecified', isUnspecified),
    is('isLoopback', isLoopback),
    is('isLinkLocalMulticast', isLinkLocalMulticast),
    is('isLinkLocalUnicast', isLinkLocalUnicast),
    is('isGlobalUnicast', isGlobalUnicast),
    celFunc('string', [IP.type], STRING, (ip) => addrString(addr(ip))),
  ];
};
