/** Kubernetes quantities (apimachinery's grammar) compared exactly, for the no-decrease rule of immutable fields. */

/** Whether a quantity went down; values that are not quantities are for the manifest check to refuse, not this rule. */
export function decreases(was: unknown, is: unknown): boolean {
  const [old, now] = [quantity(was), quantity(is)];
  return old !== undefined && now !== undefined && compareQuantities(now, old) < 0;
}

/** A quantity as an exact decimal: `digits` × 10^-`scale`. */
interface Exact {
  digits: bigint;
  scale: number;
}

/** apimachinery's quantity grammar (as in kubernetes/kube-formats.ts), with the number and suffix captured. */
const QUANTITY = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?$/;
const BINARY = ['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
/** Exponents beyond any storage size; refusing them keeps the BigInt powers small. */
const LARGEST_EXPONENT = 100;

function quantity(value: unknown): Exact | undefined {
  const match = typeof value === 'number' || typeof value === 'string' ? QUANTITY.exec(String(value)) : null;
  if (match === null) return undefined;
  const [, number = '', suffix = ''] = match;
  const [whole = '', fraction = ''] = number.replace(/^[+-]/, '').split('.');
  let digits = BigInt(`${whole}${fraction}` || '0') * (number.startsWith('-') ? -1n : 1n);
  let scale = fraction.length;
  const exponent = BINARY.includes(suffix) ? 0 : (DECIMAL[suffix] ?? Number(suffix.slice(1)));
  if (Math.abs(exponent) > LARGEST_EXPONENT) return undefined;
  if (BINARY.includes(suffix)) digits *= 1024n ** BigInt(BINARY.indexOf(suffix) + 1);
  if (exponent >= 0) digits *= 10n ** BigInt(exponent);
  else scale -= exponent;
  return { digits, scale };
}

function compareQuantities(left: Exact, right: Exact): number {
  const scale = Math.max(left.scale, right.scale);
  const [a, b] = [left.digits * 10n ** BigInt(scale - left.scale), right.digits * 10n ** BigInt(scale - right.scale)];
  return a < b ? -1 : a > b ? 1 : 0;
}
