/**
 * The Warning header as the Kubernetes API server writes it and client-go reads it: `299 - "text"`,
 * the text an RFC 9110 quoted-string whose `"` and `\` are quoted pairs and whose other characters go
 * as UTF-8 bytes (obs-text). A control character cannot be sent in a header at all, so it is shown
 * as its \uXXXX escape. Node (and fetch) hand header bytes over as Latin-1 characters, both ways.
 */

export function warningHeader(text: string): string {
  const shown = text.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const quoted = shown.replace(/[\\"]/g, (c) => '\\' + c);
  return `299 - "${/[^\x00-\x7f]/.test(quoted) ? Buffer.from(quoted, 'utf8').toString('latin1') : quoted}"`;
}

/** The texts of a Warning header's values, as a client reads them. */
export function warningTexts(header: string | null): string[] {
  if (header === null) return [];
  return [...header.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)].map((match) => Buffer.from(match[1]!.replace(/\\(.)/g, '$1'), 'latin1').toString('utf8'));
}
