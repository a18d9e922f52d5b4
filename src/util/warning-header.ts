/**
 * The Warning header as the Kubernetes API server writes it and client-go reads it: `299 - "text"`,
 * the text an RFC 9110 quoted-string whose `"` and `\` are quoted pairs and whose other characters go
 * as UTF-8 bytes (obs-text). A control character cannot be sent in a header at all, so it is shown
 * as its \uXXXX escape. Node and fetch hand header bytes over as Latin-1 characters, both ways.
 * Pure (no Node API), so the console shares the decoder.
 */

export function warningHeader(text: string): string {
  const shown = text.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const quoted = shown.replace(/[\\"]/g, (c) => '\\' + c);
  return `299 - "${/[^\x00-\x7f]/.test(quoted) ? latin1Of(new TextEncoder().encode(quoted)) : quoted}"`;
}

/** The texts of a Warning header's values, as a client reads them. */
export function warningTexts(header: string | null): string[] {
  if (header === null) return [];
  const quoted = [...header.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]!.replace(/\\(.)/g, '$1'));
  return quoted.map((text) => new TextDecoder().decode(bytesOf(text)));
}

/** Bytes as the Latin-1 characters a header carries them as, one character per byte. */
const latin1Of = (bytes: Uint8Array): string => Array.from(bytes, (byte) => String.fromCharCode(byte)).join('');

/** The bytes of a header's Latin-1 characters (each character's low byte, as Buffer's 'latin1' reads them). */
function bytesOf(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
}
