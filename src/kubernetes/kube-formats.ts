/**
 * Kubernetes' value formats as the API server parses them (Go), in one place. The validators of
 * `kubernetes-models` look their formats up in one shared table at every check, and some of its
 * entries are looser or stricter than Go: a quantity `1Y` or a date-time `2024-01-01 00:00:00Z`
 * passes though the API server refuses it, line-wrapped base64 fails though Go skips the breaks,
 * and int64 takes integers JSON cannot carry exactly. Installing the Go rules into that table
 * makes the manifest check and the input schemas (which take the same table) judge alike.
 */
import { createRequire } from 'node:module';
import { goTrimSpace } from '../apiserver/golang/values.js';
import { parseIPSloppy } from '../apiserver/golang/ip.js';

// The validators are CommonJS and require the CommonJS build: its table, not the ES module's copy.
const { formats: sharedFormats } = createRequire(import.meta.url)(
  '@kubernetes-models/validate',
) as typeof import('@kubernetes-models/validate');

/** JSON numbers are doubles: an integer beyond this does not arrive as the caller wrote it. */
export const LARGEST_EXACT_INTEGER = Number.MAX_SAFE_INTEGER;

/** apimachinery's quantity grammar: a signed decimal, then a binary or decimal SI suffix or an integer exponent. */
const QUANTITY = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?$/;

/**
 * resource.Quantity's UnmarshalJSON trims spaces first (strings.TrimSpace): `"10Gi "` is 10Gi. A
 * RegExp still, since kubernetes-models' validators and ajv call a format's `test`.
 */
class SpaceTrimmingRegExp extends RegExp {
  override test(text: string): boolean {
    return super.test(goTrimSpace(text));
  }
}

/** Go's time.RFC3339 as metav1.Time parses it: upper-case T and Z, seconds below 60, a zone always. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** Standard base64 with padding; Go's decoder skips CR and LF, so wrapped output (`base64` wraps at 76) is fine. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function isRfc3339(text: string): boolean {
  const match = RFC3339.exec(text);
  if (match === null) return false;
  const [year, month, day, hour, minute, second, zoneHour = 0, zoneMinute = 0] = match.slice(1).map((part) => Number(part ?? 0));
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  return (
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= daysInMonth &&
    hour! <= 23 &&
    minute! <= 59 &&
    second! <= 59 &&
    zoneHour <= 23 &&
    zoneMinute <= 59
  );
}

/**
 * kube-openapi's ipv4 (ParseIPSloppy: leading zeros tolerated) and ipv6 (Go's net.ParseIP: no
 * leading zeros in an embedded IPv4 part), each only with its separator in the text.
 */
const isIPv4Format = (text: string) => text.includes('.') && parseIPSloppy(text) !== undefined;
const isIPv6Format = (text: string) => {
  const v4Tail = text.includes('.') ? text.slice(text.lastIndexOf(':') + 1).split('.') : [];
  return text.includes(':') && parseIPSloppy(text) !== undefined && !v4Tail.some((part) => part.length > 1 && part.startsWith('0'));
};

/** The formats whose rule is Go's, by name, as ajv format definitions. */
export const KUBERNETES_FORMATS = {
  byte: { type: 'string', validate: (value: string) => BASE64.test(value.replace(/[\r\n]/g, '')) },
  quantity: { type: 'string', validate: new SpaceTrimmingRegExp(QUANTITY.source) },
  'date-time': { type: 'string', validate: isRfc3339 },
  int64: { type: 'number', validate: (value: number) => Number.isSafeInteger(value) },
  ipv4: { type: 'string', validate: isIPv4Format },
  ipv6: { type: 'string', validate: isIPv6Format },
} as const;

// The validators of kubernetes-models read `formats.<name>.validate` at each check, so changing the
// entry changes what they accept.
for (const [name, format] of Object.entries(KUBERNETES_FORMATS))
  Object.assign((sharedFormats as Record<string, object>)[name] ?? ((sharedFormats as Record<string, object>)[name] = {}), format);

/** Every format a Kubernetes schema may name, Go's rules first: for an ajv that checks input values. */
export const kubernetesFormats: Record<string, unknown> = sharedFormats;
