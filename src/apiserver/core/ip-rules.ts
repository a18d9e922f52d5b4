/** The API server's rules for IPs and CIDRs in legacy fields (sloppy parsing, as 1.33 runs them). */
import { type FieldError, type FieldPath, invalid } from '../apimachinery/field-error.js';
import {
  isIPv4,
  isLinkLocalMulticast,
  isLinkLocalUnicast,
  isLoopback,
  isUnspecified,
  parseCIDRSloppy,
  parseIPSloppy,
} from '../golang/ip.js';

export function validateIPLegacy(path: FieldPath, value: string): FieldError[] {
  return parseIPSloppy(value) === undefined ? [invalid(path, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')] : [];
}

export function validateCidrLegacy(path: FieldPath, value: string): FieldError[] {
  return parseCIDRSloppy(value) === undefined
    ? [invalid(path, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')]
    : [];
}

/** An endpoint may not be an address no other host can reach. */
export function validateEndpointIP(path: FieldPath, value: string): FieldError[] {
  const ip = parseIPSloppy(value);
  if (ip === undefined) return [invalid(path, value, 'must be a valid IP address')];
  const errors: FieldError[] = [];
  if (isUnspecified(ip)) errors.push(invalid(path, value, `may not be unspecified (${value})`));
  if (isLoopback(ip)) errors.push(invalid(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (isLinkLocalUnicast(ip)) errors.push(invalid(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (isLinkLocalMulticast(ip)) errors.push(invalid(path, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errors;
}

/** One IPv4 and one IPv6 among addresses that all parse. */
export function isDualStack(ips: readonly string[]): boolean {
  const parsed = ips.map(parseIPSloppy);
  return parsed.some((ip) => ip !== undefined && isIPv4(ip)) && parsed.some((ip) => ip !== undefined && !isIPv4(ip));
}
