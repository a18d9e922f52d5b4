/**
 * Kubernetes' CEL cidr library (k8s.io/apiserver/pkg/cel/library/cidr.go): cidr(), isCIDR(),
 * containsIP(), containsCIDR(), ip(), prefixLength(), masked(), string(cidr). Prefixes are Go's
 * netip.ParsePrefix's; the address keeps its host bits until masked().
 */
import { goQuote } from '../../apiserver/golang/strconv.js';
import { toBytes } from '../../apiserver/golang/url.js';
import { type Addr, addrString, is4In6 } from '../../apiserver/golang/netip.js';
import { contains, masked, overlaps, type Prefix, parsePrefix, prefixString } from '../../apiserver/golang/netip-prefix.js';
import { parseIP } from './ip.js';
import { type Library, orThrow } from './opaque.js';

const PARSE_ERROR = 'network address parse error during conversion from string: ';

/** stringToCIDR: the prefix, or Kubernetes' error text (its parse errors are prefixed twice, as Go's are). */
function parseCIDR(text: string): Prefix | string {
  const prefix = parsePrefix(toBytes(text));
  if (typeof prefix === 'string') return PARSE_ERROR + PARSE_ERROR + prefix;
  if (is4In6(prefix.addr)) return `${PARSE_ERROR}IPv4-mapped IPv6 address ${goQuote(text)} is not allowed`;
  return prefix;
}

export const cidrLibrary: Library = ({ cel }, types) => {
  const { celFunc, celMethod } = cel;
  const { STRING, BOOL, INT } = cel.CelScalar;
  const [CIDR, IP] = [types['net.CIDR'], types['net.IP']];
  const prefix = (value: unknown) => CIDR.value(value as never) as Prefix;
  const cidrValue = (value: Prefix) => CIDR.of(prefixString(value), value);
  const containsCIDR = (outer: Prefix, inner: Prefix) => overlaps(outer, inner) && outer.bits <= inner.bits;
  return [
    celFunc('cidr', [STRING], CIDR.type, (text) => cidrValue(orThrow(parseCIDR(text)))),
    celFunc('isCIDR', [STRING], BOOL, (text) => typeof parseCIDR(text) !== 'string'),
    celMethod('containsIP', CIDR.type, [STRING], BOOL, function (text) {
      const ip = parseIP(text);
      // Go hands the parse error to a check that then reports the CIDR as having no such overload.
      if (typeof ip === 'string') throw new Error('no such overload');
      return contains(prefix(this), ip);
    }),
    celMethod('containsIP', CIDR.type, [IP.type], BOOL, function (ip) {
      return contains(prefix(this), IP.value(ip) as Addr);
    }),
    celMethod('containsCIDR', CIDR.type, [STRING], BOOL, function (text) {
      return containsCIDR(prefix(this), orThrow(parseCIDR(text)));
    }),
    celMethod('containsCIDR', CIDR.type, [CIDR.type], BOOL, function (other) {
      return containsCIDR(prefix(this), prefix(other));
    }),
    celMethod('ip', CIDR.type, [], IP.type, function () {
      const addr = prefix(this).addr;
      return IP.of(addrString(addr), addr);
    }),
    celMethod('prefixLength', CIDR.type, [], INT, function () {
      return BigInt(prefix(this).bits);
    }),
    celMethod('masked', CIDR.type, [], CIDR.type, function () {
      return cidrValue(masked(prefix(this)));
    }),
    celFunc('string', [CIDR.type], STRING, (value) => prefixString(prefix(value))),
  ];
};
